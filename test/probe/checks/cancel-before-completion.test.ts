import { cancelBeforeCompletion } from '../../../src/probe/check-declarations/cancel-before-completion.js';
import { messagesOf } from '../../../src/probe/check-message.js';
import { judgeSilence } from '../../../src/probe/checks/silence-judgement.js';
import { testJudgement } from './judgement-tester.js';
import { SILENCE_ROWS } from './silence-rows.js';

const message = messagesOf(cancelBeforeCompletion);

testJudgement(cancelBeforeCompletion, (run: Parameters<typeof judgeSilence>[0]) => judgeSilence(run, message), SILENCE_ROWS);
