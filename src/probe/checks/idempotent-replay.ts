import { idempotentReplay as declared } from '../check-declarations/idempotent-replay.js';
import { messagesOf } from '../check-message.js';
import { judged, type ProbeCheck } from '../probe-types.js';
import { judgeReplay, type ReplayAnswer, replayGoesOn } from './idempotent-replay-judgement.js';
import { METHODS } from '../../protocol/methods.js';

const message = messagesOf(declared);
/** At most three calls: the key twice with the same arguments, then once with changed ones. */
const REPLAYS = 3;

/**
 * Only with --allow-mutations: calls the mutation twice with one fresh key and the same arguments, then (when both were
 * answered and the first did not fail) with changed arguments; `judgeReplay` judges the three answers.
 */
export const idempotentReplay: ProbeCheck<'idempotent-replay'> = {
  ...declared,
  limit(context) {
    const mutation = context.plan.mutation;
    if (mutation === undefined) return undefined;
    return { tool: mutation.name, ms: REPLAYS * context.plan.requestTimeoutMs, waitsFor: `an answer to each of its ${REPLAYS} calls` };
  },
  async run(context) {
    const mutation = context.plan.mutation;
    if (mutation === undefined) return judged('inconclusive', message('notRun', {}));
    const key = `mcprely-probe-${process.pid}-${Date.now()}`;
    const call = async (args: Record<string, unknown>): Promise<ReplayAnswer> => {
      const sent = await context.session.request(
        METHODS.toolsCall,
        { name: mutation.name, arguments: { ...args, [mutation.keyArgument]: key } },
        context.plan.requestTimeoutMs,
        context.owner,
      );
      return sent.inbox.response?.message ?? { failed: sent.inbox.why ?? `no answer within ${context.plan.requestTimeoutMs} ms` };
    };
    const first = await call(mutation.arguments);
    const second = await call(mutation.arguments);
    const changed = changeArguments(mutation.arguments, mutation.fingerprint);
    const third = replayGoesOn(first, second) ? await call(changed) : undefined;
    return judgeReplay({ tool: mutation.name, key, changed, first, second, ...(third === undefined ? {} : { third }) });
  },
};

/** The arguments with one bound value changed: a number plus one, a string with a suffix. */
function changeArguments(args: Record<string, unknown>, fingerprint: readonly string[]): Record<string, unknown> {
  const names = fingerprint.length > 0 ? fingerprint : Object.keys(args);
  for (const name of names) {
    const value = args[name];
    if (typeof value === 'number') return { ...args, [name]: value + 1 };
    if (typeof value === 'string') return { ...args, [name]: `${value}-changed` };
  }
  return { ...args, mcprelyChanged: true };
}
