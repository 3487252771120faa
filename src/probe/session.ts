import { factsOf } from '../spec/revision-facts.js';
import { MOST_DEPLOYED_REVISION, SPEC_VERSIONS } from '../spec/revisions.js';
import type { CallHandle, Connection, PostOutcome, ProbeRevision } from './connection.js';
import { HttpConnection } from './http-connection.js';
import type { Received } from './message-stream.js';
import type { WireLog } from './wire-log.js';

declare const MCPRELY_VERSION: string;
const CLIENT_INFO = { name: 'mcprely-probe', version: typeof MCPRELY_VERSION === 'string' ? MCPRELY_VERSION : 'dev' };

/** The probe's MCP client: the handshake of the revision, requests with ids and progress tokens, and cancellation by the transport's signal. */
export class ProbeSession {
  #nextId = 1;

  constructor(
    readonly connection: Connection,
    readonly log: WireLog,
  ) {}

  get revision(): ProbeRevision {
    return this.connection.revision;
  }

  /** Decides the revision (given, or asked of an HTTP server with server/discover) and performs its handshake. */
  async open(revision: ProbeRevision | undefined, timeoutMs: number): Promise<{ ok: true } | { ok: false; reason: string }> {
    const discovering = SPEC_VERSIONS.filter((candidate) => factsOf(candidate).handshake.value === 'server/discover').at(-1);
    if (revision === undefined && this.connection instanceof HttpConnection && discovering !== undefined) {
      this.connection.revision = discovering;
      // A server of an older revision may ignore the unknown method: ask briefly.
      const discovered = await this.request('server/discover', {}, Math.min(timeoutMs, 3000));
      const versions = (discovered?.message['result'] as { supportedVersions?: unknown } | undefined)?.supportedVersions;
      const modern = Array.isArray(versions) && versions.includes(discovering);
      this.log.note(
        modern
          ? `the server offers ${discovering} (server/discover): probing that revision`
          : `no ${discovering} in reply to server/discover: probing ${MOST_DEPLOYED_REVISION}`,
      );
      if (modern) return { ok: true };
      this.connection.revision = MOST_DEPLOYED_REVISION;
    } else {
      this.connection.revision = revision ?? MOST_DEPLOYED_REVISION;
    }
    if (factsOf(this.connection.revision).handshake.value === 'server/discover') {
      const discovered = await this.request('server/discover', {}, timeoutMs);
      if (discovered === undefined) return { ok: false, reason: `no answer to server/discover within ${timeoutMs} ms${this.#why()}` };
      return { ok: true };
    }
    const initialized = await this.request(
      'initialize',
      { protocolVersion: this.connection.revision, capabilities: {}, clientInfo: CLIENT_INFO },
      timeoutMs,
    );
    if (initialized === undefined) return { ok: false, reason: `no answer to initialize within ${timeoutMs} ms${this.#why()}` };
    if (initialized.message['error'] !== undefined)
      return { ok: false, reason: `initialize was refused: ${JSON.stringify(initialized.message['error'])}` };
    await this.notify('notifications/initialized', {});
    return { ok: true };
  }

  /** A request whose answer is awaited (up to `timeoutMs`); undefined when none came. */
  async request(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<Received | undefined> {
    const handle = await this.call(method, params, false);
    return handle.messages.next(
      (message) => message['id'] === handle.id && (message['result'] !== undefined || message['error'] !== undefined),
      timeoutMs,
    );
  }

  /** Starts a request; with `progress`, it carries a progress token of its own. */
  async call(method: string, params: Record<string, unknown>, progress: boolean): Promise<CallHandle> {
    const id = this.#nextId++;
    const meta: Record<string, unknown> = { ...(progress ? { progressToken: `mcprely-${id}` } : {}), ...this.#envelope() };
    const message = { jsonrpc: '2.0', id, method, params: Object.keys(meta).length === 0 ? params : { ...params, _meta: meta } };
    return this.connection.call(message);
  }

  async notify(method: string, params: Record<string, unknown>): Promise<PostOutcome> {
    const meta = this.#envelope();
    return this.connection.notify({ jsonrpc: '2.0', method, params: Object.keys(meta).length === 0 ? params : { ...params, _meta: meta } });
  }

  /** Cancels with the transport's signal: the notification on stdio, and on HTTP what the revision defines (a POSTed notification, or closing the stream). */
  async cancel(handle: CallHandle, reason: string): Promise<'close-stream' | 'notification'> {
    if (this.connection.transport === 'streamable-http' && factsOf(this.revision)['http-cancel-signal'].value === 'close-stream') {
      handle.closeStream();
      return 'close-stream';
    }
    await this.notify('notifications/cancelled', { requestId: handle.id, reason });
    return 'notification';
  }

  /** The per-request envelope of a stateless revision (protocol version, client information and capabilities in every request). */
  #envelope(): Record<string, unknown> {
    if (factsOf(this.revision)['request-metadata'].value !== 'per-request-envelope') return {};
    return {
      'io.modelcontextprotocol/protocolVersion': this.revision,
      'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
  }

  #why(): string {
    const broken = this.connection.broken;
    return broken === undefined ? '' : ` (${broken})`;
  }
}
