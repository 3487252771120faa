import { ignoredCancellations } from '../../../src/probe/check-declarations/ignored-cancellations.js';
import { type IgnoredCancellationsRun, judgeIgnoredCancellations } from '../../../src/probe/checks/ignored-cancellations-judgement.js';
import { testJudgement } from './judgement-tester.js';

const LATE = 'a cancellation of a request that already completed';
const UNKNOWN = 'a cancellation of an unknown request';
const ignoredAll = [{ cancellation: LATE }, { cancellation: UNKNOWN }];

const run = (more: Partial<IgnoredCancellationsRun> = {}): IgnoredCancellationsRun => ({ cancellations: ignoredAll, strays: [], ...more });

testJudgement(
  ignoredCancellations,
  judgeIgnoredCancellations,
  {
    pass: [{ name: 'every cancellation ignored, nothing stray, still serving', input: run(), messageId: 'ignored', data: {} }],
    fail: [
      {
        name: 'the unknown request cancellation answered with an error',
        input: run({ cancellations: [{ cancellation: LATE }, { cancellation: UNKNOWN, answer: 'an error -32602' }] }),
        messageId: 'answered',
        data: { cancellation: UNKNOWN, answer: 'an error -32602' },
      },
      {
        name: 'a response to an id the probe never sent',
        input: run({ strays: ['a response to request 99, which the probe never sent'] }),
        messageId: 'stray',
        data: { stray: 'a response to request 99, which the probe never sent' },
      },
      {
        name: 'the server no longer answers afterwards',
        input: run({ unhealthy: 'the server no longer answers tools/list: the process exited' }),
        messageId: 'unhealthy',
      },
    ],
  },
  { unexercised: ['listUnanswered'] },
);
