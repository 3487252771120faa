import { idKey } from '../protocol/json-rpc-id.js';
import { METHODS } from '../protocol/methods.js';
import { ERROR_CODES } from '../protocol/error-codes.js';
import { errorReply, type JsonObject, resultReply } from '../mcp-serving/json-rpc-replies.js';
import { callToolResult, type ToolOutcome, toolError } from './mcp-tool.js';
import type { McpCallRequest } from './mcprely-tool-server.js';

/**
 * The most calls a session runs at once. An assistant calls a few tools at a time; each call holds a manifest
 * (at most 2 MiB) and its review: past the bound a call is answered at once with an error that says so.
 */
export const MAX_RUNNING_CALLS = 8;

/**
 * The least time between two progress notifications of a call (ms): both parties SHOULD rate-limit progress, and a
 * review's fixtures end milliseconds apart. The first goes out at once; a step within the interval is not told.
 */
export const PROGRESS_MIN_INTERVAL_MS = 100;

/** Where a call's messages go: its progress and its answer (`send`), then the end of its stream (`end`). */
export interface CallSink {
  send(message: JsonObject): void;
  end(): void;
}

/**
 * The tool calls of one session: each runs with an AbortSignal its cancellation aborts. Progress goes out only for
 * a request that carried a token, strictly increasing; after a cancellation nothing more goes out for the request
 * (no progress, no answer), and the work stops at its next step.
 */
export class ToolCalls {
  readonly #running = new Map<string, AbortController>();
  readonly #runs = new Set<Promise<void>>();

  /** `work`: the count of calls running in the whole server, which every session's calls share. */
  constructor(
    private readonly workingFolder: string,
    private readonly work: { running: number } = { running: 0 },
  ) {}

  start(call: McpCallRequest, sink: CallSink): void {
    if (this.#running.size >= MAX_RUNNING_CALLS) {
      sink.send(
        errorReply(
          call.id,
          ERROR_CODES.internalError,
          `mcprely mcp runs at most ${MAX_RUNNING_CALLS} calls of a session at once: wait for one`,
        ),
      );
      sink.end();
      return;
    }
    const key = idKey(call.id);
    this.#running.get(key)?.abort(new Error('a new request with the same id'));
    const controller = new AbortController();
    this.#running.set(key, controller);
    let last = Number.NEGATIVE_INFINITY;
    let lastAt = Number.NEGATIVE_INFINITY;
    const progress = (done: number, total: number, message: string) => {
      if (call.token === undefined || controller.signal.aborted || done <= last) return;
      if (performance.now() - lastAt < PROGRESS_MIN_INTERVAL_MS) return;
      last = done;
      lastAt = performance.now();
      sink.send({ jsonrpc: '2.0', method: METHODS.progress, params: { progressToken: call.token, progress: done, total, message } });
    };
    const work = this.work;
    const context = { workingFolder: this.workingFolder, signal: controller.signal, progress, otherCallsRunning: () => work.running - 1 };
    const run = (async () => {
      work.running++;
      let outcome: ToolOutcome;
      try {
        outcome = await call.tool.run(call.args, context);
      } catch (error) {
        outcome = toolError(`mcprely could not finish ${call.tool.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      // A cancelled call counts as running until its work has stopped (at its next step), not when it was asked to.
      work.running--;
      if (this.#running.get(key) === controller) this.#running.delete(key);
      if (!controller.signal.aborted) sink.send(resultReply(call.id, callToolResult(outcome)));
      sink.end();
    })();
    this.#runs.add(run);
    void run.finally(() => this.#runs.delete(run));
  }

  /** Settles once every call started so far has ended (answered or stopped). */
  async settled(): Promise<void> {
    while (this.#runs.size > 0) await Promise.all([...this.#runs]);
  }

  /** The client cancelled a request: its work stops, and nothing more is sent for it. */
  cancel(requestId: unknown): void {
    this.#running.get(idKey(requestId))?.abort(new Error('cancelled by the client'));
  }

  /** Stops every call (the session ended). */
  stopAll(): void {
    for (const controller of this.#running.values()) controller.abort(new Error('the session ended'));
  }

  get running(): number {
    return this.#running.size;
  }
}
