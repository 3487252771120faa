/**
 * Which HTTP requests a listener of mcprely answers: DNS-rebinding protection for a server on the user's machine.
 *
 * A web page can rebind a name of its own to 127.0.0.1 and then call a local server as if from its own origin: the
 * request carries that name in `Host`, and a browser also sends the page's `Origin`. The Streamable HTTP transport's
 * security warning says servers MUST validate `Origin` (403 when it is present and invalid) and local servers should
 * bind to localhost; the official SDKs and the conformance suite also refuse a foreign `Host` on a loopback server.
 * A relay must not defeat the server's own check (the proxy sends the upstream its own Host). So a listener answers
 * only a request whose Host names this machine's loopback or the address it listens on, and whose Origin, when
 * there is one, is a loopback page or the listening host; `--allow-host` and `--allow-origin` widen that. Pure.
 */

import { ERROR_CODES } from '../protocol/error-codes.js';

/** Names that reach this machine only. */
const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

export interface RequestGuard {
  /** Host names (lower case, IPv6 in brackets) a request may name; `any` when the user allowed every one. */
  readonly hosts: ReadonlySet<string> | 'any';
  /** Origins (`scheme://host[:port]`, as URL serializes them) allowed besides loopback pages; `any` for every one. */
  readonly origins: ReadonlySet<string> | 'any';
  /** The host name of the address the listener is bound to, when it is one address (not a wildcard). */
  readonly listening?: string;
}

/** A listener's guard and what it does with a request it refuses besides the 403 (tell the user). */
export interface GuardedListener {
  readonly guard: RequestGuard;
  readonly refused: (refusal: Refusal) => void;
}

/** A refused request: the header that decided it, its value as sent, and what to do, in words. */
export interface Refusal {
  readonly header: 'Host' | 'Origin';
  readonly value: string;
  readonly message: string;
}

/** The host name of a Host header or an address (`name`, `name:port`, `[v6]:port`, a bare IPv6), lower case; undefined if it is none. */
export function hostName(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  // A bare IPv6 address (a listen address) has colons and no brackets.
  const bracketed = !trimmed.startsWith('[') && (trimmed.match(/:/g)?.length ?? 0) > 1 ? `[${trimmed}]` : trimmed;
  try {
    const url = new URL(`http://${bracketed}`);
    if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') return undefined;
    return url.hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** `--allow-host <name>`: a host name (a port is ignored) or `*`; a message saying what is wrong otherwise. */
export function parseAllowedHost(text: string): string | { readonly problem: string } {
  if (text.trim() === '*') return '*';
  const name = hostName(text);
  return name === undefined
    ? { problem: `--allow-host ${text}: give a host name as a client sends it in Host (mcp.example.test, 192.168.1.5, [::1]), or *` }
    : name;
}

/** `--allow-origin <origin>`: `scheme://host[:port]` or `*`; a message saying what is wrong otherwise. */
export function parseAllowedOrigin(text: string): string | { readonly problem: string } {
  if (text.trim() === '*') return '*';
  const problem = {
    problem: `--allow-origin ${text}: give an origin as a browser sends it (https://app.example.test, http://localhost:5173), or *`,
  };
  try {
    const url = new URL(text.trim());
    if (url.origin === 'null' || url.pathname !== '/' || url.search !== '' || url.username !== '') return problem;
    if (!/^[a-z][a-z0-9+.-]*:\/\/[^/]+\/?$/i.test(text.trim())) return problem;
    return url.origin;
  } catch {
    return problem;
  }
}

/**
 * The guard of a listener on `listenHost`: loopback names and the listening address itself, and what the user
 * allowed (`*` allows every host or origin).
 */
export function requestGuard(listenHost: string, allowHosts: readonly string[] = [], allowOrigins: readonly string[] = []): RequestGuard {
  const listening = hostName(listenHost);
  return {
    ...(listening === undefined || isWildcard(listening) ? {} : { listening }),
    hosts: allowHosts.includes('*')
      ? 'any'
      : new Set([...LOOPBACK_NAMES, ...(listening === undefined ? [] : [listening]), ...allowHosts.map((name) => name.toLowerCase())]),
    origins: allowOrigins.includes('*') ? 'any' : new Set(allowOrigins),
  };
}

/** Whether a page's origin is one the guard lets call: a loopback page, one on the listening address, or one the user named. */
function originAllowed(guard: RequestGuard, origin: string): boolean {
  if (guard.origins === 'any') return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  // `null` (a sandboxed frame, a file) is no page's origin that can be trusted.
  if (url.origin === 'null') return false;
  if (guard.origins.has(url.origin)) return true;
  const host = url.hostname.toLowerCase();
  return LOOPBACK_NAMES.includes(host) || host === guard.listening;
}

/** An address that listens everywhere is no page's host. */
function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '[::]';
}

function headerValue(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.join(', ');
}

/**
 * Why the guard refuses a request with these headers, or undefined when it may be answered. A request with no Host is
 * refused (HTTP/1.1 requires one); one with no Origin is not a browser's and is judged by its Host alone.
 */
export function refusalOf(
  guard: RequestGuard,
  host: string | readonly string[] | undefined,
  origin: string | readonly string[] | undefined,
): Refusal | undefined {
  const hostText = headerValue(host);
  if (guard.hosts !== 'any') {
    const name = hostText === undefined ? undefined : hostName(hostText);
    if (name === undefined || !guard.hosts.has(name))
      return {
        header: 'Host',
        value: hostText ?? '',
        message:
          hostText === undefined
            ? 'a request without a Host header'
            : `Host ${hostText} is not a name of this listener (a page that rebinds a name to this machine sends its own): ` +
              `start mcprely with --allow-host ${name ?? '<name>'} if you meant to reach it by that name`,
      };
  }
  const originText = headerValue(origin);
  if (originText !== undefined && !originAllowed(guard, originText))
    return {
      header: 'Origin',
      value: originText,
      message:
        `a page of another origin (${originText}) may not call this listener: ` +
        'start mcprely with --allow-origin <that origin> if you trust it',
    };
  return undefined;
}

/** The body of a refused request's 403: one JSON-RPC error, id null (the request was not read). */
export function refusalBody(refusal: Refusal): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: ERROR_CODES.requestRefused, message: `Forbidden: ${refusal.message}` } })}\n`;
}

/**
 * Tells refusals on a line each, bounded: a page that floods the listener with requests gets the first few told, and
 * a last line saying the rest are not.
 */
export class RefusalLog {
  #told = 0;
  #silent = 0;

  constructor(
    private readonly say: (line: string) => void,
    private readonly most = 10,
  ) {}

  refused(refusal: Refusal, describe: (refusal: Refusal) => string): void {
    if (this.#told < this.most) {
      this.#told++;
      this.say(describe(refusal));
      if (this.#told === this.most) this.say('further refused requests are not told one by one');
      return;
    }
    this.#silent++;
  }

  /** How many refusals were not told. */
  get untold(): number {
    return this.#silent;
  }
}
