import { type Command, InvalidArgumentError } from 'commander';

/** The probe's own budget by default: enough for a tool of up to 60 s to be run, cancelled and timed out (3 minutes). */
export const DEFAULT_MAX_TIME_MS = 180_000;

/** How every live command (probe, drift, verify and evidence with --stdio/--url) calls the server: one option set. */
export interface LiveCallOptions {
  readonly operation?: string;
  readonly arguments?: Record<string, unknown>;
  readonly idleTimeoutMs?: number;
  readonly maxTimeoutMs?: number;
  readonly allowMutations: boolean;
  readonly graceMs: number;
  readonly maxTimeMs: number;
}

/** Adds the live options to a command (the same names, meanings and defaults on each). */
export function addLiveOptions(command: Command, mutations: string): Command {
  return command
    .option('--operation <name>', 'the long-running tool to call')
    .option('--arguments <json>', 'arguments for the long-running tool, as JSON', parseJsonObject)
    .option('--allow-mutations', mutations, false)
    .option('--idle-timeout <ms>', 'the client idle timeout the probe enforces (default: the manifest, else 10 s)', parsePositive)
    .option('--max-timeout <ms>', 'the client maximum timeout the probe enforces (default: the manifest, else 30 s)', parsePositive)
    .option('--grace <ms>', 'how long to watch for messages that must not come', parseCount, 1000)
    .option('--max-time <ms>', "the probe's own budget for everything, in ms", parsePositive, DEFAULT_MAX_TIME_MS);
}

/** The live options as commander parsed them. */
export function liveOptionsFrom(options: Record<string, unknown>): LiveCallOptions {
  return {
    ...(typeof options['operation'] === 'string' ? { operation: options['operation'] } : {}),
    ...(options['arguments'] === undefined ? {} : { arguments: options['arguments'] as Record<string, unknown> }),
    ...(options['idleTimeout'] === undefined ? {} : { idleTimeoutMs: options['idleTimeout'] as number }),
    ...(options['maxTimeout'] === undefined ? {} : { maxTimeoutMs: options['maxTimeout'] as number }),
    allowMutations: options['allowMutations'] === true,
    graceMs: options['grace'] as number,
    maxTimeMs: options['maxTime'] as number,
  };
}

export function parseJsonObject(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new InvalidArgumentError(`not JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidArgumentError('expected a JSON object');
  return parsed as Record<string, unknown>;
}

export function parsePositive(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) === 0) throw new InvalidArgumentError('expected a whole number above 0');
  return Number(value);
}

export function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number of 0 or more');
  return Number(value);
}
