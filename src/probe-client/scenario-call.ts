import { ERROR_CODES } from '../protocol/error-codes.js';
import { errorReply, type JsonObject } from '../mcp-serving/json-rpc-replies.js';
import { textResult } from './scenario-protocol.js';
import type { ScenarioPlan, ScenarioTiming } from './scenarios.js';
import { METHODS } from '../protocol/methods.js';

/** Where a running call's messages go; the transport decides (its stream, a buffer for a resumption, stdout). */
export interface CallSink {
  /** A message for the call: progress, or its final answer (`final`). */
  send(message: JsonObject, final: boolean): void;
  /** Drops the call's stream without its answer (Streamable HTTP only). */
  drop(): void;
}

/**
 * One scenario call running: its progress on a timer (only when the call carries a token), its end when the plan
 * says (a result, an error, or a dropped stream, after which the work may still finish), and a hold bound for a
 * call that never ends so that the session can. `stop` ends it silently: the client cancelled it, or the session is over.
 */
export class ScenarioCall {
  readonly #timers: NodeJS.Timeout[] = [];
  #progress = 0;
  #over = false;
  #cancelled = false;

  constructor(
    readonly id: string | number,
    readonly name: string,
    private readonly plan: ScenarioPlan,
    private readonly timing: ScenarioTiming,
    private readonly sink: CallSink,
    private readonly token?: string | number,
  ) {}

  /** Whether the call still runs (not answered, not stopped). */
  get running(): boolean {
    return !this.#over;
  }

  start(): void {
    const { progressEveryMs, progressCount, finishAtMs, finish } = this.plan;
    if (progressEveryMs !== undefined && this.token !== undefined) {
      const token = this.token;
      const tick = setInterval(() => {
        if (progressCount !== undefined && this.#progress >= progressCount) return clearInterval(tick);
        this.#progress++;
        this.sink.send({ jsonrpc: '2.0', method: METHODS.progress, params: { progressToken: token, progress: this.#progress } }, false);
      }, progressEveryMs);
      this.#timers.push(tick);
    }
    if (finishAtMs === undefined || finish === undefined) {
      this.#later(this.timing.holdMs, () =>
        this.#answer(
          errorReply(
            this.id,
            ERROR_CODES.internalError,
            `held ${this.timing.holdMs} ms and nothing ended it: mcprely answers so that the session can end`,
          ),
        ),
      );
      return;
    }
    this.#later(finishAtMs, () => {
      if (finish === 'result') this.#answer(textResult(this.id, `${this.name}: done after ${finishAtMs} ms`));
      else if (finish === 'error')
        this.#answer(errorReply(this.id, ERROR_CODES.internalError, `${this.name}: this scenario fails on purpose`));
      else {
        this.#stopProgress();
        this.sink.drop();
        const after = this.plan.answerAfterDropMs;
        if (after !== undefined && !this.#over)
          this.#later(after - finishAtMs, () => this.#answer(textResult(this.id, `${this.name}: done after the drop`)));
      }
    });
  }

  /** The client cancelled it: it ends without a word more, and nothing it produced is sent (a resumption replays nothing). */
  cancel(): void {
    this.#cancelled = true;
    this.stop();
  }

  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** Ends the call without a word more: the request is lost with its stream, or the session is over. */
  stop(): void {
    this.#over = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.length = 0;
  }

  #stopProgress(): void {
    this.#progress = this.plan.progressCount ?? Number.POSITIVE_INFINITY;
  }

  #answer(message: JsonObject): void {
    if (this.#over) return;
    this.stop();
    this.sink.send(message, true);
  }

  #later(ms: number, act: () => void): void {
    this.#timers.push(
      setTimeout(
        () => {
          if (!this.#over) act();
        },
        Math.max(0, ms),
      ),
    );
  }
}

/**
 * The idempotency keys of the session's `slow_write` calls: a call whose key was seen is answered at once with the
 * first call's outcome, never run again — what a server that honours keys does.
 */
export class KeyBook {
  readonly #seen = new Map<string, string | number>();

  /** The first call's id when `key` was seen, else undefined (and the key is taken for `id`). */
  claim(key: unknown, id: string | number): string | number | undefined {
    if (typeof key !== 'string' || key === '') return undefined;
    const first = this.#seen.get(key);
    if (first === undefined) this.#seen.set(key, id);
    return first;
  }
}

/** The answer to a call whose idempotency key an earlier call took. */
export function duplicateAnswer(id: string | number, key: string, first: string | number): JsonObject {
  return textResult(id, `idempotency key ${key} was first used by request ${JSON.stringify(first)}: its outcome stands, nothing ran again`);
}
