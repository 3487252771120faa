import { type Command, InvalidArgumentError } from 'commander';
import { parseAllowedHost, parseAllowedOrigin } from '../listener/request-guard.js';
import type { ListenerAllowances } from '../api/listener-guard.js';

function repeatable(parse: (text: string) => string | { readonly problem: string }) {
  return (value: string, previous: string[] = []): string[] => {
    const parsed = parse(value);
    if (typeof parsed !== 'string') throw new InvalidArgumentError(parsed.problem);
    return [...previous, parsed];
  };
}

/** `--allow-host` and `--allow-origin` on a command that opens an HTTP listener. */
export function addListenerOptions(command: Command): Command {
  return command
    .option(
      '--allow-host <name>',
      'also answer requests whose Host is this name (default: loopback names and the --listen address only; * for any; repeatable)',
      repeatable(parseAllowedHost),
    )
    .option(
      '--allow-origin <origin>',
      'also answer browser requests from this origin (default: loopback pages only; * for any; repeatable)',
      repeatable(parseAllowedOrigin),
    );
}

/** `--allow-host` and `--allow-origin` as commander parses them (absent when not given). */
export interface ListenerFlags {
  readonly allowHost?: readonly string[];
  readonly allowOrigin?: readonly string[];
}

/** The allowances commander parsed, for the command's options. */
export function listenerAllowancesFrom(options: ListenerFlags): ListenerAllowances {
  const hosts = options.allowHost;
  const origins = options.allowOrigin;
  return {
    ...(Array.isArray(hosts) ? { allowHosts: hosts } : {}),
    ...(Array.isArray(origins) ? { allowOrigins: origins } : {}),
  };
}
