import { factsOf } from '../spec/revision-facts.js';
import { Connection, type CallHandle, type PostOutcome } from './connection.js';
import type { MessageStream } from './message-stream.js';
import { SseParser } from './sse-parser.js';
import type { WireLog } from './wire-log.js';

const MAX_JSON_BODY = 4 * 1024 * 1024;

/**
 * The server at a Streamable HTTP endpoint. Each request is its own POST; its response (JSON, or an SSE
 * stream read incrementally with bounds) feeds that request's messages. Closing a request's stream is
 * aborting its fetch. Only the URL given on the probe's command line is ever contacted.
 */
export class HttpConnection extends Connection {
  readonly #url: URL;
  readonly #aborts = new Set<AbortController>();
  #broken: string | undefined;

  constructor(url: URL, log: WireLog, clock: () => number) {
    super('streamable-http', log, clock);
    this.#url = url;
  }

  get broken(): string | undefined {
    return this.#broken;
  }

  get url(): URL {
    return this.#url;
  }

  headersFor(message: Record<string, unknown>): Record<string, string> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const method = message['method'];
    if (method !== 'initialize') headers['MCP-Protocol-Version'] = this.revision;
    if (this.sessionId !== undefined) headers['Mcp-Session-Id'] = this.sessionId;
    if (factsOf(this.revision)['http-routing-headers'].value && typeof method === 'string') {
      headers['Mcp-Method'] = method;
      const params = message['params'] as { name?: unknown; uri?: unknown } | undefined;
      const name = params?.name ?? params?.uri;
      if (typeof name === 'string' && ['tools/call', 'prompts/get', 'resources/read'].includes(method)) headers['Mcp-Name'] = name;
    }
    return headers;
  }

  async call(message: Record<string, unknown>): Promise<CallHandle> {
    const id = message['id'] as string | number;
    const token = (message['params'] as { _meta?: { progressToken?: string | number } } | undefined)?._meta?.progressToken;
    const messages = this.register(id, token);
    const abort = new AbortController();
    this.#aborts.add(abort);
    this.log.sent(`POST ${JSON.stringify(message)}`);
    let response: Response;
    try {
      response = await fetch(this.#url, {
        method: 'POST',
        headers: this.headersFor(message),
        body: JSON.stringify(message),
        signal: abort.signal,
      });
    } catch (error) {
      const reason = `the POST failed: ${(error as Error).message}`;
      this.log.note(reason);
      messages.close(reason);
      return { id, messages, headers: {}, closeStream: () => false };
    }
    const headers = Object.fromEntries(response.headers);
    if (message['method'] === 'initialize' && headers['mcp-session-id'] !== undefined) this.sessionId = headers['mcp-session-id'];
    this.log.note(
      `HTTP ${response.status} ${headers['content-type'] ?? '(no content type)'} for ${String(message['method'])} (id ${JSON.stringify(id)})`,
    );
    let closedByProbe = false;
    const handle: CallHandle = {
      id,
      ...(token === undefined ? {} : { progressToken: token }),
      messages,
      headers,
      closeStream: () => {
        closedByProbe = true;
        abort.abort();
        this.log.add('→', `[closes the response stream of request ${JSON.stringify(id)}]`);
        return true;
      },
    };
    void this.#consume(response, messages, () => closedByProbe).finally(() => this.#aborts.delete(abort));
    return handle;
  }

  async notify(message: Record<string, unknown>): Promise<PostOutcome> {
    this.log.sent(`POST ${JSON.stringify(message)}`);
    try {
      const response = await fetch(this.#url, {
        method: 'POST',
        headers: this.headersFor(message),
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await readBounded(response, 64 * 1024)).trim();
      this.log.add('←', `HTTP ${response.status}${body === '' ? '' : ` ${body}`}`);
      return { status: response.status, body };
    } catch (error) {
      this.log.note(`the POST failed: ${(error as Error).message}`);
      return {};
    }
  }

  /** A plain GET on the endpoint, as a client opening a standalone stream would. */
  async get(): Promise<{ status: number; headers: Record<string, string> } | undefined> {
    this.log.add('→', `GET ${this.#url.pathname}`);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 3000);
    try {
      const response = await fetch(this.#url, {
        method: 'GET',
        headers: {
          Accept: 'text/event-stream',
          'MCP-Protocol-Version': this.revision,
          ...(this.sessionId === undefined ? {} : { 'Mcp-Session-Id': this.sessionId }),
        },
        signal: abort.signal,
      });
      const headers = Object.fromEntries(response.headers);
      this.log.add('←', `HTTP ${response.status} ${headers['content-type'] ?? ''}`.trim());
      abort.abort();
      return { status: response.status, headers };
    } catch (error) {
      this.log.note(`the GET failed: ${(error as Error).message}`);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    for (const abort of this.#aborts) abort.abort();
    this.#aborts.clear();
  }

  async #consume(response: Response, messages: MessageStream, closedByProbe: () => boolean): Promise<void> {
    const type = response.headers.get('content-type') ?? '';
    try {
      if (type.startsWith('text/event-stream') && response.body !== null) {
        const parser = new SseParser((event) => this.#deliver(event.data, messages));
        const decoder = new TextDecoder();
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          parser.push(decoder.decode(chunk, { stream: true }));
          if (messages.flooded) {
            this.log.note('the server floods this stream: the probe stops reading it');
            break;
          }
        }
        messages.close('the server ended the response stream');
        return;
      }
      const body = await readBounded(response, MAX_JSON_BODY);
      if (body.trim() !== '') this.#deliver(body, messages);
      messages.close(`HTTP ${response.status} response complete`);
    } catch (error) {
      messages.close(closedByProbe() ? 'the probe closed the stream' : `the stream broke: ${(error as Error).message}`);
    }
  }

  #deliver(text: string, messages: MessageStream): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      messages.pushGarbage(text);
      this.log.add('←', `(not JSON) ${text.slice(0, 200)}`);
      return;
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      if (message === null || typeof message !== 'object') continue;
      this.log.received(message);
      this.route(message as Record<string, unknown>, messages);
    }
  }
}

async function readBounded(response: Response, limit: number): Promise<string> {
  if (response.body === null) return '';
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    if (text.length > limit) return `${text.slice(0, limit)}… (body over ${limit} characters, not read)`;
  }
  return text;
}
