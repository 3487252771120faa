import { type GuardedListener, RefusalLog, requestGuard } from '../listener/request-guard.js';
import { displayText } from '../text/display-text.js';

/** What the user widened a listener's Host and Origin checks with (`--allow-host`, `--allow-origin`; repeatable). */
export interface ListenerAllowances {
  readonly allowHosts?: readonly string[];
  readonly allowOrigins?: readonly string[];
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
