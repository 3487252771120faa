import { type Command, Option } from 'commander';
import { DEFAULT_GRACE_MS, DEFAULT_TOLERANCE_MS, type JudgeOptions } from '../judges/judge-options.js';
import { parseCount, parsePositive } from './live-options.js';

/** The options a session is judged with, shared by `proxy` and `audit`. */
export function addJudgeOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--idle-timeout <ms>', "the client's idle timeout to judge its cancellations against (what the host claims)").argParser(
        parsePositive,
      ),
    )
    .addOption(new Option('--max-timeout <ms>', "the client's maximum timeout, which progress must not extend").argParser(parsePositive))
    .addOption(
      new Option('--tolerance <ms>', 'how late after a timeout a cancellation still counts as on time')
        .argParser(parseCount)
        .default(DEFAULT_TOLERANCE_MS),
    )
    .addOption(
      new Option('--grace <ms>', 'how long after a cancellation what was in flight may still arrive')
        .argParser(parseCount)
        .default(DEFAULT_GRACE_MS),
    )
    .addOption(
      new Option(
        '--idempotency-key-field <name>',
        'the tool-call argument that carries an idempotency key (default: names like idempotencyKey)',
      ),
    );
}

/** The judge options as commander parses them (`addJudgeOptions`). */
export interface JudgeFlags {
  readonly idleTimeout?: number;
  readonly maxTimeout?: number;
  readonly tolerance: number;
  readonly grace: number;
  readonly idempotencyKeyField?: string;
}

export function judgeOptionsFrom(options: JudgeFlags): JudgeOptions {
  return {
    toleranceMs: options.tolerance,
    graceMs: options.grace,
    ...(typeof options.idleTimeout === 'number' ? { idleTimeoutMs: options.idleTimeout } : {}),
    ...(typeof options.maxTimeout === 'number' ? { maxTimeoutMs: options.maxTimeout } : {}),
    ...(typeof options.idempotencyKeyField === 'string' ? { idempotencyKeyField: options.idempotencyKeyField } : {}),
  };
}
