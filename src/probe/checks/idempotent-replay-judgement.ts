import { canonicalJson } from '../../json/canonical-json.js';
import { idempotentReplay } from '../check-declarations/idempotent-replay.js';
import { type CheckMessage, messagesOf } from '../check-message.js';
import { type CheckOutcome, judged } from '../probe-types.js';
import { toolFailed } from './observe.js';

const message = messagesOf(idempotentReplay);

/** What one call of the mutation got: its response, or why none came. */
export type ReplayAnswer = Readonly<Record<string, unknown>> | { readonly failed: string };

/** What the replay check's plan recorded: the mutation called with one key, twice alike, then with changed arguments. */
export interface ReplayRun {
  readonly tool: string;
  readonly key: string;
  readonly changed: Readonly<Record<string, unknown>>;
  readonly first: ReplayAnswer;
  readonly second: ReplayAnswer;
  /** The call with changed arguments: made only when both first calls were answered and the first did not fail. */
  readonly third?: ReplayAnswer;
}

/** Whether the plan goes on to the third call: both first calls answered, the first one not a failure. */
export function replayGoesOn(first: ReplayAnswer, second: ReplayAnswer): boolean {
  return !('failed' in first) && !('failed' in second) && toolFailed(first) === undefined;
}

/** Judges a replay: the same key and arguments give one result, the same key with changed arguments is refused. Pure. */
export function judgeReplay(run: ReplayRun): CheckOutcome<never> {
  const { first, second, third } = run;
  const unanswered = 'failed' in first ? first : 'failed' in second ? second : undefined;
  if (unanswered !== undefined) return judged('fail', message('unanswered', { tool: run.tool, why: String(unanswered.failed) }));
  const details = [`key ${run.key}`];
  const failed = toolFailed(first);
  if (failed !== undefined) return judged('fail', message('firstFailed', { failure: failed }), details);
  if (third === undefined) throw new Error('the replay goes on to the changed arguments');
  const refused = !('failed' in third) && toolFailed(third) !== undefined;
  const problems: CheckMessage[] = [];
  if (resultOf(first) !== resultOf(second))
    problems.push(message('differentResults', { first: resultOf(first), second: resultOf(second) }));
  if (!refused)
    problems.push(
      message('changedAccepted', {
        arguments: canonicalJson(run.changed),
        answer: 'failed' in third ? String(third.failed) : resultOf(third),
      }),
    );
  details.push(`changed arguments: ${canonicalJson(run.changed)}`);
  return problems.length === 0
    ? judged('pass', message('replayed', {}), details)
    : judged('fail', problems[0]!, [...problems.slice(1).map((problem) => problem.text), ...details]);
}

/** The result (or error) a call returned, without its _meta, as canonical JSON: what a replay must repeat. */
function resultOf(answer: Readonly<Record<string, unknown>>): string {
  return canonicalJson(stripMeta(answer['result'] ?? answer['error']));
}

function stripMeta(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value ?? null;
  const { _meta: _ignored, ...rest } = value as Record<string, unknown>;
  return rest;
}
