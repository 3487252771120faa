import { HTTP_HEADER_KEYS } from '../protocol/http-headers.js';
/**
 * The headers a user adds to every request to a server over HTTP (`--header "Name: value"`, repeatable): an API
 * key, a bearer token, a cookie. Their values are secrets: they are sent and never shown, recorded or echoed; a
 * problem with one names the header (or its place on the command line), never its value.
 */
export interface AddedHeader {
  readonly name: string;
  readonly value: string;
}

/** What stands in for a secret wherever one would have to be shown. */
export const REDACTED = '[redacted]';

/** Headers of one hop only (RFC 9110 §7.6.1), never forwarded; `host` is the upstream's own. */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/** Headers that describe the body or the exchange, which the HTTP client (or the protocol) sets for each request. */
const SET_PER_REQUEST: ReadonlySet<string> = new Set([
  'content-length',
  'content-type',
  'accept',
  'accept-encoding',
  ...Object.values(HTTP_HEADER_KEYS),
]);

/** A field name (RFC 9110 §5.6.2: a token). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Credentials (RFC 9110 §11.4): an auth scheme (a token), then what it carries ("Bearer <token>", "Basic <user:pass>"). */
const CREDENTIALS = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) +(\S.*)$/;
/** A field value: visible Latin-1 characters, spaces and tabs; no control character (a CR or LF would start another header). */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * One `--header "Name: value"` (the `place`-th given), or what is wrong with it in a sentence that never quotes the
 * value: a header without a colon may be a bare token, so it is not quoted either.
 */
export function parseAddedHeader(text: string, place: number): AddedHeader | string {
  const at = `--header (the ${ordinal(place)})`;
  const colon = text.indexOf(':');
  if (colon === -1)
    return `${at} has no colon: give it as "Name: value", such as "Authorization: Bearer <token>" (not shown: it may hold a secret)`;
  const name = text.slice(0, colon).trim();
  if (name === '') return `${at} has no name before its colon: give it as "Name: value"`;
  if (!TOKEN.test(name))
    return `${at}: the name before the colon is not a header name (letters, digits and !#$%&'*+-.^_\`|~ only; not shown: it may hold a secret)`;
  const value = text.slice(colon + 1).trim();
  if (!FIELD_VALUE.test(value))
    return `--header ${name}: its value holds a character no header can carry (a line break, a control character, one beyond Latin-1)`;
  const lower = name.toLowerCase();
  if (lower === 'host') return `--header ${name}: the Host header is the endpoint's own (the URL decides it): remove it`;
  if (HOP_BY_HOP.has(lower)) return `--header ${name}: a hop-by-hop header describes one connection, not the request: remove it`;
  if (SET_PER_REQUEST.has(lower))
    return `--header ${name}: mcprely sets this header on each request itself (the protocol or the body decides it): remove it`;
  return { name, value };
}

/** The headers given so far with one more `--header` (the next in order), or its problem; a name given twice is one. */
export function withAddedHeader(previous: readonly AddedHeader[], text: string): readonly AddedHeader[] | string {
  const header = parseAddedHeader(text, previous.length + 1);
  if (typeof header === 'string') return header;
  if (previous.some((earlier) => earlier.name.toLowerCase() === header.name.toLowerCase()))
    return `--header ${header.name} is given twice: give each header once`;
  return [...previous, header];
}

function ordinal(place: number): string {
  const tens = place % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][place % 10] ?? 'th');
  return `${place}${suffix}`;
}

/** An HTTP endpoint as the probe calls it: the URL without its credentials, and every header added to each request. */
export interface HttpEndpoint {
  readonly url: URL;
  readonly headers: readonly AddedHeader[];
}

/**
 * The endpoint a URL and the added headers call: credentials in the URL (`https://user:pass@host/mcp`) become the
 * Basic Authorization they stand for (RFC 9110 §11.2; fetch refuses such a URL, quoting it), unless an Authorization
 * header is given; the query is kept (a server may want its token there), never shown (`shownEndpoint`).
 */
export function httpEndpoint(url: URL, headers: readonly AddedHeader[]): HttpEndpoint {
  if (url.username === '' && url.password === '') return { url, headers };
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  if (headers.some((header) => header.name.toLowerCase() === 'authorization')) return { url: bare, headers };
  const credentials = `${decoded(url.username)}:${decoded(url.password)}`;
  return { url: bare, headers: [...headers, { name: 'Authorization', value: `Basic ${Buffer.from(credentials).toString('base64')}` }] };
}

/** A percent-encoded part of a URL as its characters (as it was, when it is not valid percent-encoding). */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** How a report, a trace or a message names an endpoint: its origin and path; credentials and query (tokens) never. */
export function shownEndpoint(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/**
 * A URL as given on a command line, for a message about it (it may not parse): what sits between `//` and `@` and
 * everything from the query on replaced by the redaction marker.
 */
export function shownUrlText(text: string): string {
  return text
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, `$1${REDACTED}@`)
    .replace(/[?#].*$/s, (rest) => (rest.startsWith('?') ? `?${REDACTED}` : ''));
}

/** A secret shorter than this is too common a string to replace wherever it appears in a report (a header "1"). */
const MIN_SECRET = 8;
/** A secret that reads as a number is not replaced: in a JSON trace line or YAML it may be a number, not text. */
const NUMBER = /^[-+.\deE]+$/;

/**
 * What a server must not get the probe to show: each added header's value, its credentials after the scheme (the
 * token of "Bearer <token>", the user:pass and password of Basic), each cookie's value, and each value of the query.
 * A server may echo any of them (a 401 body quoting the token it refused); `redactSecrets` removes them.
 */
export function secretsOf(endpoint: HttpEndpoint): readonly string[] {
  const secrets = new Set<string>();
  for (const { name, value } of endpoint.headers) {
    secrets.add(value);
    const credentials = CREDENTIALS.exec(value);
    if (credentials !== null) {
      secrets.add(credentials[2] as string);
      if (credentials[1]?.toLowerCase() === 'basic') {
        const pair = Buffer.from(credentials[2] as string, 'base64').toString('utf8');
        secrets.add(pair);
        secrets.add(pair.slice(pair.indexOf(':') + 1));
      }
    }
    if (name.toLowerCase() === 'cookie') for (const cookie of value.split(';')) secrets.add(cookie.slice(cookie.indexOf('=') + 1).trim());
  }
  for (const value of endpoint.url.searchParams.values()) secrets.add(value);
  // Longest first: a token inside a longer secret is replaced as part of it.
  return [...secrets].filter((secret) => secret.length >= MIN_SECRET && !NUMBER.test(secret)).sort((a, b) => b.length - a.length);
}

/** `text` with each secret, as written or as it reads inside a JSON string, replaced by the redaction marker. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secrets) {
    redacted = redacted.replaceAll(secret, REDACTED);
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) redacted = redacted.replaceAll(escaped, REDACTED);
  }
  return redacted;
}

/** A plain value (a report) with `redactSecrets` applied to every string in it; the value itself when there is none. */
export function redactedDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const walk = (part: unknown): unknown => {
    if (typeof part === 'string') return redactSecrets(part, secrets);
    if (Array.isArray(part)) return part.map(walk);
    if (part === null || typeof part !== 'object') return part;
    return Object.fromEntries(Object.entries(part).map(([key, inner]) => [redactSecrets(key, secrets), walk(inner)]));
  };
  return walk(value) as T;
}
