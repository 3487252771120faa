import type { Party, SessionTranscript } from '../judges/session-transcript.js';
import { responseRecord, type StreamRecord } from '../judges/stream-records.js';
import { SessionRecorder } from '../recording/session-recorder.js';
import { TRACE_TRANSPORT, type Transport } from '../protocol/transports.js';

/**
 * The probe's own session as the judges read it, recorded as the proxy records a host's: every message the probe
 * sent and the server sent back, with its time and (over Streamable HTTP) its exchange, opened, answered and closed.
 * With `--record` the same records go to a trace file, which `mcprely audit` judges again. Each record remembers the
 * check it is about, so a judge's failure can be told at the check whose requests met it. The connection's
 * own bound on messages (a flood ends it) bounds what is kept.
 */
export class ProbeRecording {
  readonly #recorder: SessionRecorder;
  /** The check each trace line is about: the one that sent it, or sent the request it names. */
  readonly #owners = new Map<number, string>();
  readonly #closed = new Set<string>();
  #exchanges = 0;

  /** `redact`: what each trace line goes through before it is written (the secrets a server echoed removed). */
  constructor(transport: Transport, server: string, recordPath?: string, redact?: (line: string) => string) {
    this.#recorder = new SessionRecorder({ transport: TRACE_TRANSPORT[transport], server }, recordPath, redact);
  }

  /** A message the probe (`client`) or the server sent; over HTTP, the exchange that carried it; the check it is about. */
  message(from: Party, message: unknown, owner: string | undefined, stream?: string): void {
    this.#own(this.#recorder.parsedMessage(from, message, stream), owner);
  }

  /**
   * What the server wrote that the probe did not take as a JSON-RPC message, kept as a string and never parsed (a JSON
   * array line would otherwise be judged member by member, unbounded: the connection's message bound counts only
   * what it took).
   */
  text(text: string, owner: string | undefined, stream?: string): void {
    this.#own(this.#recorder.message('server', text, true, stream), owner);
  }

  /** Why the trace file stopped being written (a full disk, a closed pipe), when it did: the judging goes on in memory. */
  get writeError(): string | undefined {
    return this.#recorder.writeError;
  }

  /** Opens an exchange (a POST, GET or DELETE the probe sends); its id, which its messages and records name. */
  open(method: string, owner: string, protocolVersion?: string): string {
    const id = `${method} ${++this.#exchanges}`;
    const request = protocolVersion === undefined ? { method } : { method, protocolVersion };
    this.#own(this.#recorder.stream('client', id, { request }), owner);
    return id;
  }

  /**
   * The status and the recorded headers (content type and the SSE ones) of an exchange's response. Like `closed`, it
   * takes the exchange as the connection holds it: undefined (nothing recorded, as over stdio) records nothing.
   */
  response(stream: string | undefined, status: number, headers: Headers | Readonly<Record<string, string>>, owner: string): void {
    const header = (name: string) => (headers instanceof Headers ? (headers.get(name) ?? undefined) : headers[name]);
    if (stream !== undefined) this.#record(stream, 'server', responseRecord(status, header), owner);
  }

  /** The end of an exchange: by the probe (it closed the stream) or by the server (the response ended or broke); once. */
  closed(stream: string | undefined, by: Party, owner: string): void {
    if (stream === undefined || this.#closed.has(stream)) return;
    this.#closed.add(stream);
    this.#record(stream, by, { closed: true }, owner);
  }

  /** The check a trace line is about: the one that sent it, or sent the request it names. */
  ownerOf(line: number): string | undefined {
    return this.#owners.get(line);
  }

  /** Stops recording; the session as the judges read it. */
  end(reason: string): SessionTranscript {
    return this.#recorder.end(reason);
  }

  #record(stream: string, from: Party, record: StreamRecord, owner: string): void {
    this.#own(this.#recorder.stream(from, stream, record), owner);
  }

  #own(line: number | undefined, owner: string | undefined): void {
    if (line !== undefined && owner !== undefined) this.#owners.set(line, owner);
  }
}
