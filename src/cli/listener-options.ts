import { type Command, InvalidArgumentError } from 'commander';
import { type GuardedListener, parseAllowedHost, parseAllowedOrigin, RefusalLog, requestGuard } from '../listener/request-guard.js';
import { displayText } from '../text/display-text.js';

/** What the user widened a listener's Host and Origin checks with (`--allow-host`, `--allow-origin`; repeatable). */
export interface ListenerAllowances {
  readonly allowHosts?: readonly string[];
  readonly allowOrigins?: readonly string[];
}

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

/** The allowances commander parsed, for the command's options. */
export function listenerAllowancesFrom(options: Record<string, unknown>): ListenerAllowances {
  const hosts = options['allowHost'];
  const origins = options['allowOrigin'];
  return {
    ...(Array.isArray(hosts) ? { allowHosts: hosts as string[] } : {}),
    ...(Array.isArray(origins) ? { allowOrigins: origins as string[] } : {}),
  };
}

/** A listener's guard and the teller of what it refuses (a line on stderr each, `program: refused …`, bounded). */
export function listenerGuard(
  program: string,
  listenHost: string,
  allowances: ListenerAllowances,
  to: NodeJS.WritableStream = process.stderr,
): GuardedListener {
  const log = new RefusalLog((line) => to.write(`${program}: ${line}\n`));
  return {
    guard: requestGuard(listenHost, allowances.allowHosts, allowances.allowOrigins),
    refused: (refusal) => log.refused(refusal, (one) => `refused a request (403): ${displayText(one.message)}`),
  };
}
