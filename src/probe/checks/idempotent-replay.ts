import { idempotentReplay as declared } from '../check-declarations/idempotent-replay.js';
import { canonicalJson } from '../../json/canonical-json.js';
import { outcome, type ProbeCheck } from '../probe-types.js';
import { toolFailed } from './observe.js';
import { METHODS } from '../../protocol/methods.js';

/** Only with --allow-mutations: the same key and arguments twice give one result; the same key with changed arguments is refused. */
export const idempotentReplay: ProbeCheck<'idempotent-replay'> = {
  ...declared,
  async run(context) {
    const mutation = context.plan.mutation;
    if (mutation === undefined)
      return outcome(
        'inconclusive',
        'not run: calling a mutation needs --allow-mutations and a manifest operation that names its idempotency key argument',
      );
    const key = `mcprely-probe-${process.pid}-${Date.now()}`;
    const call = async (args: Record<string, unknown>) => {
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
    const unanswered = 'failed' in first ? first : 'failed' in second ? second : undefined;
    if (unanswered !== undefined) return outcome('fail', `${mutation.name} was not answered: ${String(unanswered['failed'])}`);
    const details = [`key ${key}`];
    const resultOf = (message: Record<string, unknown>) => canonicalJson(stripMeta(message['result'] ?? message['error']));
    const failed = toolFailed(first);
    if (failed !== undefined) return outcome('fail', `the first call failed with ${failed}`, details);
    const changed = changeArguments(mutation.arguments, mutation.fingerprint);
    const third = await call(changed);
    const refused = !('failed' in third) && toolFailed(third) !== undefined;
    const problems: string[] = [];
    if (resultOf(first) !== resultOf(second))
      problems.push(`the same key and arguments gave two different results: ${resultOf(first)} then ${resultOf(second)}`);
    if (!refused)
      problems.push(
        `the same key with changed arguments (${canonicalJson(changed)}) was accepted: ${'failed' in third ? String(third['failed']) : resultOf(third)}`,
      );
    details.push(`changed arguments: ${canonicalJson(changed)}`);
    return problems.length === 0
      ? outcome('pass', 'the replay returned the first result; the changed arguments were refused', details)
      : outcome('fail', problems[0]!, [...problems.slice(1), ...details]);
  },
};

function stripMeta(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value ?? null;
  const { _meta: _ignored, ...rest } = value as Record<string, unknown>;
  return rest;
}

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
