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
    if (revision === undefined && this.connection instanceof HttpConnection) {
      this.connection.revision = '2026-07-28';
      // A 2025-era server may ignore the unknown method: ask briefly.
      const discovered = await this.request('server/discover', {}, Math.min(timeoutMs, 3000));
      const versions = (discovered?.message['result'] as { supportedVersions?: unknown } | undefined)?.supportedVersions;
      const modern = Array.isArray(versions) && versions.includes('2026-07-28');
      this.log.note(modern ? 'the server offers 2026-07-28 (server/discover): probing that revision' : 'no 2026-07-28 in reply to server/discover: probing 2025-11-25');
      if (modern) return { ok: true };
      this.connection.revision = '2025-11-25';
    } else {
      this.connection.revision = revision ?? '2025-11-25';
    }
    if (this.connection.revision === '2026-07-28') {
      const discovered = await this.request('server/discover', {}, timeoutMs);
      if (discovered === undefined) return { ok: false, reason: `no answer to server/discover within ${timeoutMs} ms${this.#why()}` };
      return { ok: true };
    }
    const initialized = await this.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO }, timeoutMs);
    if (initialized === undefined) return { ok: false, reason: `no answer to initialize within ${timeoutMs} ms${this.#why()}` };
    if (initialized.message['error'] !== undefined) return { ok: false, reason: `initialize was refused: ${JSON.stringify(initialized.message['error'])}` };
    await this.notify('notifications/initialized', {});
    return { ok: true };
  }

  /** A request whose answer is awaited (up to `timeoutMs`); undefined when none came. */
  async request(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<Received | undefined> {
    const handle = await this.call(method, params, false);
    return handle.messages.next((message) => message['id'] === handle.id && (message['result'] !== undefined || message['error'] !== undefined), timeoutMs);
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

  /** Cancels with the transport's signal: the notification on stdio and on 2025-11-25 HTTP, closing the stream on 2026-07-28 HTTP. */
  async cancel(handle: CallHandle, reason: string): Promise<'close-stream' | 'notification'> {
    if (this.connection.transport === 'streamable-http' && this.revision === '2026-07-28') {
      handle.closeStream();
      return 'close-stream';
    }
    await this.notify('notifications/cancelled', { requestId: handle.id, reason });
    return 'notification';
  }

  /** The 2026-07-28 per-request envelope. */
  #envelope(): Record<string, unknown> {
    if (this.revision !== '2026-07-28') return {};
    return { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': CLIENT_INFO, 'io.modelcontextprotocol/clientCapabilities': {} };
  }

  #why(): string {
    const broken = this.connection.broken;
    return broken === undefined ? '' : ` (${broken})`;
  }
}
