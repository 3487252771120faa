import { clientTimeouts } from '../../../src/probe/check-declarations/client-timeouts.js';
import { messagesOf } from '../../../src/probe/check-message.js';
import { judgeSilence } from '../../../src/probe/checks/silence-judgement.js';
import { type JudgementCase, testJudgement } from './judgement-tester.js';
import { SILENCE_ROWS } from './silence-rows.js';

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
);
