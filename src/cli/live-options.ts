import { type Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_MAX_TIME_MS, DEFAULT_WATCH_GRACE_MS, type ResolvedLiveCallOptions } from '../api/live-call-options.js';
import { type AddedHeader, withAddedHeader } from '../probe/request-headers.js';
import { UsageError } from '../workspace/usage-error.js';

/** Adds the live options to a command (the same names, meanings and defaults on each). */
export function addLiveOptions(command: Command, mutations: string): Command {
  return command
    .addOption(headerOption('with --url: send this header ("Authorization: Bearer …") on every request'))
    .option('--operation <name>', 'the long-running tool to call')
    .option('--arguments <json>', 'arguments for the long-running tool, as JSON', parseJsonObject)
    .option('--allow-mutations', mutations, false)
    .option('--idle-timeout <ms>', 'the client idle timeout the probe enforces (default: the manifest, else 10 s)', parsePositive)
    .option('--max-timeout <ms>', 'the client maximum timeout the probe enforces (default: the manifest, else 30 s)', parsePositive)
    .option('--grace <ms>', 'how long to watch for messages that must not come', parseCount, DEFAULT_WATCH_GRACE_MS)
    .option('--max-time <ms>', "the probe's own budget for everything, in ms", parsePositive, DEFAULT_MAX_TIME_MS)
    .option('--quiet', 'no line on stderr as each probe check starts and ends', false);
}

/** The `--header`s as commander parses them (absent when none was given). */
export interface HeaderFlags {
  readonly header?: readonly AddedHeader[];
}

/** The live options as commander parses them (`addLiveOptions`). */
export interface LiveFlags extends HeaderFlags {
  readonly operation?: string;
  readonly arguments?: Record<string, unknown>;
  readonly allowMutations: boolean;
  readonly idleTimeout?: number;
  readonly maxTimeout?: number;
  readonly grace: number;
  readonly maxTime: number;
  /** No probe lines on stderr (`--quiet`). */
  readonly quiet?: boolean;
}

/** The live options as commander parsed them. */
export function liveOptionsFrom(options: LiveFlags): ResolvedLiveCallOptions {
  return {
    ...(options.operation === undefined ? {} : { operation: options.operation }),
    ...(options.arguments === undefined ? {} : { arguments: options.arguments }),
    ...(options.idleTimeout === undefined ? {} : { idleTimeoutMs: options.idleTimeout }),
    ...(options.maxTimeout === undefined ? {} : { maxTimeoutMs: options.maxTimeout }),
    allowMutations: options.allowMutations === true,
    graceMs: options.grace,
    maxTimeMs: options.maxTime,
    ...headersFrom(options),
  };
}

/** Whether `--quiet` was given: the probe's lines on stderr are not written. */
export function quietFrom(options: LiveFlags): { quiet: boolean } {
  return { quiet: options.quiet === true };
}

/**
 * `--header <header>` (repeatable): a header added to every request to the server. A value is never printed: a
 * problem names the header, and is a usage error of its own (commander's would quote the argument).
 */
export function headerOption(description: string): Option {
  return new Option('--header <name:value>', `${description} (repeatable; the value is never printed or recorded)`).argParser(
    (text: string, previous: readonly AddedHeader[] | undefined) => {
      const headers = withAddedHeader(previous ?? [], text);
      if (typeof headers === 'string') throw new UsageError(headers);
      return headers;
    },
  );
}

/** The `--header`s as parsed, when any was given. */
export function headersFrom(options: HeaderFlags): { headers?: readonly AddedHeader[] } {
  return options.header === undefined ? {} : { headers: options.header };
}

/** A `--header` given to a command that calls no endpoint (it would be ignored, and the user thinks it is sent). */
export const HEADER_WITHOUT_URL = '--header is for an HTTP endpoint: give it with --url <endpoint>';

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
