import { idKey } from '../judges/session-requests.js';
import type { SessionTranscript } from '../judges/session-transcript.js';
import { SessionRecorder } from '../recording/session-recorder.js';
import type { SpecVersion } from '../spec/revisions.js';
import type { LogLevel } from '../protocol/log-levels.js';
import type { McpHeaders } from '../mcp-serving/request-envelope.js';
import { envelopeRevision, shapedForRevision } from '../mcp-serving/result-shape.js';
import { type CallSink, duplicateAnswer, KeyBook, ScenarioCall } from './scenario-call.js';
import { type Handled, handleMessage, type JsonObject, SERVER_INFO } from './scenario-protocol.js';
import type { ScenarioPlan, ScenarioTiming } from './scenarios.js';
import { TRACE_TRANSPORT, type Transport } from '../protocol/transports.js';

/**
 * One client's session with the scenario server: its recording (the client's messages from `client`, so that the
 * trace reads as any other and `mcprely audit` judges it again), the revision its handshake settled, and its calls.
 */
export class ScenarioSession {
  readonly recorder: SessionRecorder;
  revision: SpecVersion | undefined;
  /** The minimum log level the client set for the session (logging/setLevel, where the revision has it). */
  logLevel: LogLevel | undefined;
  readonly #calls = new Map<string, ScenarioCall>();
  readonly #keys = new KeyBook();
  readonly #dropped = new Set<string>();
  #ended: SessionTranscript | undefined;

  constructor(
    readonly label: string,
    readonly transport: Transport,
    readonly timing: ScenarioTiming,
    recordPath?: string,
  ) {
    this.recorder = new SessionRecorder({ transport: TRACE_TRANSPORT[transport], server: 'mcprely probe-client' }, recordPath);
  }

  /**
   * A message of the client, recorded; what the server does about it (a handshake's revision is taken, and a log
   * level set). Over HTTP `headers` are the request's MCP headers; over stdio the session's revision stands for them.
   */
  receive(message: unknown, stream?: string, headers?: McpHeaders): Handled {
    this.recorder.parsedMessage('client', message, stream);
    const handled = handleMessage(
      message,
      this.transport === 'streamable-http'
        ? { transport: this.transport, headers: headers ?? {} }
        : { transport: 'stdio', sessionRevision: this.revision },
    );
    if (handled.kind === 'reply' && handled.revision !== undefined) this.revision = handled.revision;
    if (handled.kind === 'reply' && handled.logLevel !== undefined) this.logLevel = handled.logLevel;
    // A client of a revision without a handshake names it in each request's envelope.
    this.revision ??= envelopeRevision(message);
    return handled;
  }

  /** A line of the client that is not JSON: recorded as text. */
  receiveText(text: string, stream?: string): void {
    this.recorder.message('client', text, false, stream);
  }

  /**
   * A message of the server as this session's revision needs it: a result names its kind, and the server in its
   * `_meta`, where the revision asks for them.
   */
  shaped(message: JsonObject): JsonObject {
    return shapedForRevision(message, this.revision, SERVER_INFO);
  }

  /** A message of the server, recorded as it is sent. */
  sent(message: JsonObject, stream?: string, eventId?: string): void {
    this.recorder.parsedMessage('server', message, stream, eventId);
  }

  /**
   * A call's plan in this session: a stream is dropped once per scenario, so that the call sent again (what the
   * client must do where a broken stream loses the request) gets its answer.
   */
  planOf(call: Extract<Handled, { kind: 'call' }>): ScenarioPlan {
    const plan = call.scenario.plan(call.args, this.timing);
    if (plan.finish !== 'drop') return plan;
    if (!this.#dropped.has(call.scenario.name)) {
      this.#dropped.add(call.scenario.name);
      return plan;
    }
    return { ...plan, finish: 'result' };
  }

  /**
   * Starts a scenario call whose messages go to `sink` (its plan: `planOf`, once per call); a `slow_write` whose key
   * was seen is answered at once.
   */
  startCall(call: Extract<Handled, { kind: 'call' }>, sink: CallSink, plan = this.planOf(call)): ScenarioCall | undefined {
    const key = call.args['idempotencyKey'];
    if (call.scenario.name === 'slow_write') {
      const first = this.#keys.claim(key, call.id);
      if (first !== undefined) {
        sink.send(duplicateAnswer(call.id, String(key), first), true);
        return undefined;
      }
    }
    const running = new ScenarioCall(call.id, call.scenario.name, plan, this.timing, sink, call.token);
    this.#calls.get(idKey(call.id) ?? '')?.stop();
    this.#calls.set(idKey(call.id) ?? '', running);
    running.start();
    return running;
  }

  /** The call a request id names, while it is known. */
  call(requestId: unknown): ScenarioCall | undefined {
    return this.#calls.get(idKey(requestId) ?? '');
  }

  /** Ends the session: every call stopped, the recording ended (`reason`: how); the transcript for the judges. */
  end(reason: string): SessionTranscript {
    if (this.#ended !== undefined) return this.#ended;
    for (const call of this.#calls.values()) call.stop();
    this.#ended = this.recorder.end(reason);
    return this.#ended;
  }

  get ended(): boolean {
    return this.#ended !== undefined;
  }
}
