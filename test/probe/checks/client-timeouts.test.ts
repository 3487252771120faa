import { clientTimeouts } from '../../../src/probe/check-declarations/client-timeouts.js';
import { messagesOf } from '../../../src/probe/check-message.js';
import { judgeSilence } from '../../../src/probe/checks/silence-judgement.js';
import { type JudgementCase, testJudgement } from './judgement-tester.js';
import { judgeTimeoutsAfterStall } from '../../../src/probe/checks/client-timeouts-judgement.js';
import { SILENCE_MESSAGES } from '../../../src/probe/check-declarations/silence-messages.js';
import type { Stall } from '../../../src/probe/stall.js';
import { SILENCE_ROWS, STALL } from './silence-rows.js';

const message = messagesOf(clientTimeouts);
// The check leads each silence message with the timeout that fired and the signal it cancelled with.
const lead = { fired: 'maximum', firedAtMs: 250, signalWords: 'notifications/cancelled' };

type Run = Parameters<typeof judgeSilence>[0];
const led = (rows: readonly JudgementCase<Run>[] | undefined) =>
  (rows ?? []).map((row) => ({ ...row, ...(row.data === undefined ? {} : { data: { ...lead, ...row.data } }) }));

testJudgement(
  clientTimeouts,
  (run: Run) => judgeSilence(run, (messageId, data) => message(messageId, { ...lead, ...data })),
  Object.fromEntries(Object.entries(SILENCE_ROWS).map(([status, rows]) => [status, led(rows)])),
  { unexercised: ['notPlayedAgain'] },
);

// After the long tool stalled uncancelled, the check is not played again: the timeout that fires first is named from the record.
testJudgement(
  clientTimeouts,
  ({ stall, played }: { stall: Stall; played: { idleMs: number; maxMs: number } }) => judgeTimeoutsAfterStall(stall, played),
  {
    inconclusive: [
      {
        name: 'nothing reset the idle clock: the idle timeout ends every call',
        input: { stall: STALL, played: { idleMs: 10_000, maxMs: 30_000 } },
        messageId: 'notPlayedAgain',
        data: { tool: 'slow_job', limitMs: 65_000, check: 'progress', fired: 'idle', timeoutMs: 10_000 },
      },
      {
        name: 'a maximum shorter than the idle timeout fires first',
        input: { stall: STALL, played: { idleMs: 10_000, maxMs: 600 } },
        messageId: 'notPlayedAgain',
        data: { tool: 'slow_job', limitMs: 65_000, check: 'progress', fired: 'maximum', timeoutMs: 600 },
      },
    ],
  },
  { unexercised: Object.keys(SILENCE_MESSAGES) },
);
