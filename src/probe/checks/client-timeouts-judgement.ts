import { clientTimeouts } from '../check-declarations/client-timeouts.js';
import { messagesOf } from '../check-message.js';
import { type CheckOutcome, judged } from '../probe-types.js';
import type { Stall } from '../stall.js';

const message = messagesOf(clientTimeouts);

/**
 * The timeouts check after the long tool stalled uncancelled in an earlier check: the timeout that fires first (the idle
 * one, which nothing reset, unless the maximum is shorter) ends every call of it, and what follows its cancellation is the
 * silence the tool keeps anyway. Not played again (it would wait a full timeout to learn the same thing): inconclusive,
 * saying so. Pure.
 */
export function judgeTimeoutsAfterStall(stall: Stall, played: { readonly idleMs: number; readonly maxMs: number }): CheckOutcome<never> {
  const idleFirst = played.idleMs <= played.maxMs;
  return judged(
    'inconclusive',
    message('notPlayedAgain', {
      tool: stall.tool,
      limitMs: stall.limitMs,
      check: stall.check,
      fired: idleFirst ? 'idle' : 'maximum',
      timeoutMs: idleFirst ? played.idleMs : played.maxMs,
    }),
  );
}
