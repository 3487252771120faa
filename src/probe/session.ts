import { factsOf } from '../spec/revision-facts.js';
import { MOST_DEPLOYED_REVISION, SPEC_VERSIONS, type SpecVersion } from '../spec/revisions.js';
import type { Call, Connection, ProbeRevision, SentNotification } from './connection.js';
import { HttpConnection } from './http-connection.js';
import type { StdioConnection } from './stdio-connection.js';
import type { WireLog } from './wire-log.js';
import { METHODS } from '../protocol/methods.js';
import { asRecord } from '../protocol/message-guards.js';
import { META_KEYS } from '../protocol/meta-keys.js';

declare const MCPRELY_VERSION: string;
const CLIENT_INFO = { name: 'mcprely-probe', version: typeof MCPRELY_VERSION === 'string' ? MCPRELY_VERSION : 'dev' };

/** How the revision was settled: asked for, negotiated, and a refusal if the server would not speak the one asked for. */
export interface Negotiation {
  readonly requested?: SpecVersion;
  readonly negotiated: SpecVersion;
  readonly how: string;
  /** The server refused the revision asked for (or the one the probe tried first). */
  readonly refused?: string;
  /** The protocol version the server answered initialize with, when it differs from the one asked. */
  readonly serverProtocolVersion?: string;
}

export type Opened = { readonly ok: true; readonly negotiation: Negotiation } | { readonly ok: false; readonly reason: string };

/** The revision that starts with server/discover (the stateless one), if mcprely knows one. */
const DISCOVERING = SPEC_VERSIONS.filter((revision) => factsOf(revision).handshake.value === METHODS.discover).at(-1);

/**
 * The probe's MCP client: the handshake of the revision, requests with fresh ids and their own progress
 * tokens, cancellation by the transport's signal, and the round trip it measures (for the allowance it gives
 * messages already in flight when it cancels).
 */
export class ProbeSession {
  #nextId = 1;
  #fences = 0;
  readonly #roundTrips: number[] = [];
  /** The capabilities the server declared (initialize's result, or server/discover's): untrusted data, read with care. */
  serverCapabilities: Record<string, unknown> | undefined;
  /** The server's name (initialize's serverInfo, or a result's serverInfo `_meta` where the revision puts it): untrusted text. */
  serverName: string | undefined;

  constructor(
    readonly connection: Connection,
    readonly log: WireLog,
  ) {}

  get revision(): ProbeRevision {
    return this.connection.revision;
  }

  /**
   * How long after a cancellation is written a message may still arrive because it was already on the wire:
   * twice the slowest round trip of tools/list measured after the handshake, at least 100 ms (a server notices a
   * cancellation only at its next checkpoint), at most 1 s. The inbox adds however long the probe itself was held up.
   * (The handshake's own round trip is not one: it includes the server starting.)
   */
  get inFlightMs(): number {
    const slowest = Math.max(0, ...this.#roundTrips);
    return Math.min(1000, Math.max(100, Math.round(2 * slowest)));
  }

  /** Decides the revision (asked for, or asked of an HTTP server with server/discover) and performs its handshake. */
  async open(requested: SpecVersion | undefined, timeoutMs: number): Promise<Opened> {
    let refused: string | undefined;
    const tryDiscover =
      DISCOVERING !== undefined && (requested === DISCOVERING || (requested === undefined && this.connection instanceof HttpConnection));
    if (tryDiscover) {
      this.connection.revision = DISCOVERING;
      const discovered = await this.#timed(METHODS.discover, {}, requested === undefined ? Math.min(timeoutMs, 3000) : timeoutMs);
      const result = discovered?.inbox.response?.message['result'] as { supportedVersions?: unknown } | undefined;
      const versions = result?.supportedVersions;
      if (Array.isArray(versions) && versions.includes(DISCOVERING)) {
        this.serverCapabilities = objectOr((result as { capabilities?: unknown }).capabilities);
        return {
          ok: true,
          negotiation: {
            ...(requested === undefined ? {} : { requested }),
            negotiated: DISCOVERING,
            how: `server/discover lists ${DISCOVERING}`,
          },
        };
      }
      const error = discovered?.inbox.response?.message['error'] as { code?: unknown; message?: unknown } | undefined;
      const because =
        error !== undefined
          ? `the server refused server/discover (${String(error.code)} ${String(error.message ?? '')})`.replace(/ \)$/, ')')
          : result !== undefined
            ? `server/discover does not list ${DISCOVERING} (it lists ${JSON.stringify(versions ?? null)})`
            : `no answer to server/discover${discovered?.inbox.why === undefined ? '' : ` (${discovered.inbox.why})`}`;
      // Nothing to fall back to when the server cannot be reached at all.
      const unreachable =
        this.connection.fatal ?? (discovered.inbox.failure?.startsWith('the POST failed') ? discovered.inbox.failure : undefined);
      if (unreachable !== undefined) return { ok: false, reason: unreachable };
      refused = `${because}: it does not speak ${DISCOVERING}`;
      this.log.note(`${refused}; trying ${MOST_DEPLOYED_REVISION}`);
    }
    const revision = requested !== undefined && requested !== DISCOVERING ? requested : MOST_DEPLOYED_REVISION;
    this.connection.revision = revision;
    const initialized = await this.#timed(
      METHODS.initialize,
      { protocolVersion: revision, capabilities: {}, clientInfo: CLIENT_INFO },
      timeoutMs,
    );
    const answer = initialized.inbox.response?.message;
    if (answer === undefined)
      return {
        ok: false,
        reason: this.connection.fatal ?? `initialize was not answered: ${initialized.inbox.why ?? `no response within ${timeoutMs} ms`}`,
      };
    if (answer['error'] !== undefined) return { ok: false, reason: `initialize was refused: ${JSON.stringify(answer['error'])}` };
    await this.notify(METHODS.initialized, {}, 'session');
    this.serverCapabilities = objectOr((answer['result'] as { capabilities?: unknown } | undefined)?.capabilities);
    const serverInfoName = asRecord(asRecord(answer['result'])?.['serverInfo'])?.['name'];
    if (typeof serverInfoName === 'string') this.serverName = serverInfoName;
    const serverVersion = (answer['result'] as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    return {
      ok: true,
      negotiation: {
        ...(requested === undefined ? {} : { requested }),
        negotiated: revision,
        how: `initialize with protocolVersion ${revision}`,
        ...(refused === undefined ? {} : { refused }),
        ...(typeof serverVersion === 'string' && serverVersion !== revision ? { serverProtocolVersion: serverVersion } : {}),
      },
    };
  }

  /** A round trip after the handshake, measured too; the server's tools, or why it did not list them (no answer, or its error). */
  async listTools(timeoutMs: number): Promise<{ tools: unknown[] } | { unanswered: string } | { error: unknown }> {
    const tools: unknown[] = [];
    let cursor: unknown;
    // Every page (a server may split its tools): a tool on the second page is as much the server's as one on the first.
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const call = await this.#timed(METHODS.toolsList, typeof cursor === 'string' ? { cursor } : {}, timeoutMs);
      const answer = call.inbox.response?.message;
      if (answer === undefined) return { unanswered: call.inbox.why ?? `no response within ${timeoutMs} ms` };
      if (answer['error'] !== undefined) return { error: answer['error'] };
      const result = asRecord(answer['result']);
      const listed = result?.['tools'];
      if (Array.isArray(listed)) tools.push(...listed);
      const named = asRecord(asRecord(result?.['_meta'])?.[META_KEYS.serverInfo])?.['name'];
      if (this.serverName === undefined && typeof named === 'string') this.serverName = named;
      cursor = result?.['nextCursor'];
      if (typeof cursor !== 'string') break;
    }
    return { tools };
  }

  /** A request whose answer is awaited (up to `timeoutMs`, then given up on); the call carries it, or why it did not come. */
  async request(
    method: string,
    params: Record<string, unknown>,
    timeoutMs: number,
    owner: string,
    capabilities: Record<string, unknown> = {},
  ): Promise<Call> {
    const call = await this.call(method, params, false, owner, capabilities);
    if ((await call.inbox.waitForResponse(timeoutMs)) === undefined) await this.giveUp(call, `no response within ${timeoutMs} ms`, owner);
    return call;
  }

  /**
   * The probe stops waiting for a request: it keeps the rule it checks and cancels it with the transport's
   * signal, unless it was answered, the connection is gone, or it is initialize (which must not be cancelled).
   * Returns the signal used, or undefined when none was due.
   */
  async giveUp(call: Call, reason: string, owner: string): Promise<'close-stream' | 'notification' | undefined> {
    if (call.inbox.response !== undefined || call.cancelledAt !== undefined || call.method === METHODS.initialize) return undefined;
    if (this.connection.fatal !== undefined) return undefined;
    this.log.note(`the probe gives up on request ${call.id} (${reason}) and cancels it`);
    return (await this.cancel(call, `mcprely probe: ${reason}`, owner)).signal;
  }

  /**
   * Starts a request with a fresh id; with `progress`, it carries a progress token of its own. `capabilities` are
   * client capabilities declared for this request alone, where the revision carries them in every request.
   */
  async call(
    method: string,
    params: Record<string, unknown>,
    progress: boolean,
    owner: string,
    capabilities: Record<string, unknown> = {},
  ): Promise<Call> {
    const id = this.#nextId++;
    const meta: Record<string, unknown> = { ...(progress ? { progressToken: `mcprely-${id}` } : {}), ...this.#envelope(capabilities) };
    const message = { jsonrpc: '2.0', id, method, params: Object.keys(meta).length === 0 ? params : { ...params, _meta: meta } };
    return this.connection.send(message, owner);
  }

  async notify(method: string, params: Record<string, unknown>, owner: string): Promise<SentNotification> {
    const meta = this.#envelope();
    return this.connection.notify(
      { jsonrpc: '2.0', method, params: Object.keys(meta).length === 0 ? params : { ...params, _meta: meta } },
      owner,
    );
  }

  /**
   * Cancels with the transport's signal: notifications/cancelled on stdio, and on Streamable HTTP what the
   * revision defines (a POSTed notification, or closing the stream). From then on, after the in-flight
   * allowance, the request must be silent. Returns the signal, and the notification when one was sent.
   */
  async cancel(
    call: Call,
    reason: string,
    owner: string,
  ): Promise<{ signal: 'close-stream' | 'notification'; notification?: SentNotification }> {
    call.cancelledAt = this.connection.now();
    call.inbox.cancel(call.cancelledAt, call.cancelledAt + this.inFlightMs);
    if (this.connection.transport === 'streamable-http' && factsOf(this.revision)['http-cancel-signal'].value === 'close-stream') {
      call.closeStream();
      return { signal: 'close-stream' };
    }
    if (this.connection.transport === 'stdio') {
      const notification = await this.notify(METHODS.cancelled, { requestId: call.id, reason }, owner);
      await this.#fence(call, owner);
      return { signal: 'notification', notification };
    }
    // Over HTTP the POST's own answer is the fence: the server read the cancellation before it answered the POST, and
    // what it wrote for the request before then, on the request's stream, may have crossed it however late it came.
    call.inbox.awaitFence();
    const notification = await this.notify(METHODS.cancelled, { requestId: call.id, reason }, owner);
    if (notification.answer === undefined) call.inbox.fencePassed(this.connection.now());
    else call.inbox.abandonFence();
    return { signal: 'notification', notification };
  }

  /**
   * A ping written right after the cancellation, on the same pipe: when its answer comes (any answer), everything
   * for `call` that came before it may have been written before the server read the cancellation. Its ids are
   * apart from the requests' (the reports' request numbers stay as they are).
   */
  async #fence(call: Call, owner: string): Promise<void> {
    call.inbox.awaitFence();
    const fence = await this.connection.send({ jsonrpc: '2.0', id: FENCE_IDS + this.#fences++, method: METHODS.ping }, owner);
    if (fence.inbox.response !== undefined) call.inbox.abandonFence();
    else fence.inbox.onResponse = (at) => call.inbox.fencePassed(at);
  }

  /** A handshake-phase request whose round trip is measured. */
  async #timed(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<Call> {
    const call = await this.call(method, params, false, 'session');
    const answer = await call.inbox.waitForResponse(timeoutMs);
    if (answer === undefined) await this.giveUp(call, `no response within ${timeoutMs} ms`, 'session');
    if (answer !== undefined && method === METHODS.toolsList) this.#roundTrips.push(answer.at - call.sentAt);
    if (this.connection.transport === 'stdio' && answer !== undefined) (this.connection as StdioConnection).handshakeAnswered = true;
    return call;
  }

  /** The per-request envelope of a stateless revision (protocol version, client information and capabilities in every request). */
  #envelope(capabilities: Record<string, unknown> = {}): Record<string, unknown> {
    if (factsOf(this.revision)['request-metadata'].value !== 'per-request-envelope') return {};
    return {
      'io.modelcontextprotocol/protocolVersion': this.revision,
      'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      'io.modelcontextprotocol/clientCapabilities': capabilities,
    };
  }
}

/** Where the fences' ids start: far from the requests', which count from 1. */
const FENCE_IDS = 1_000_000_001;

/** The most `tools/list` pages read: a server whose cursor never ends is not listed for ever (50 pages of tools is far past any real server). */
const MAX_TOOL_PAGES = 50;

function objectOr(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
