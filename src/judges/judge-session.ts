import { clientCancelsOnIdleTimeout, clientCancelsOnlyPending, clientEnforcesMaximum, clientRequestIdsUnique } from './client-judges.js';
import { clientResumesOnlyWhereSupported, HTTP_SERVER_JUDGES } from './http-judges.js';
import type { JudgeOptions } from './judge-options.js';
import type { Judge, Judgement } from './judgement.js';
import { clientCancelsWithRevisionSignal } from './cancel-signal-judge.js';
import { clientRecoversLostRequest } from './lost-request-judge.js';
import { serverStreamsProgress } from './progress-streaming-judge.js';
import { clientResumesOnlyPending } from './resume-pending-judge.js';
import { clientRetryKeepsKey } from './retry-judge.js';
import { SERVER_JUDGES } from './server-judges.js';
import { indexSession, type SessionIndex } from './session-requests.js';
import type { SessionTranscript } from './session-transcript.js';

/** Every judge, the server's first: the order of a report. */
export const JUDGES: readonly Judge[] = [
  ...SERVER_JUDGES,
  ...HTTP_SERVER_JUDGES,
  serverStreamsProgress,
  clientCancelsOnIdleTimeout,
  clientEnforcesMaximum,
  clientRequestIdsUnique,
  clientCancelsOnlyPending,
  clientRetryKeepsKey,
  clientResumesOnlyWhereSupported,
  clientResumesOnlyPending,
  clientCancelsWithRevisionSignal,
  clientRecoversLostRequest,
];

/** What the judges made of one session. */
export interface SessionVerdict {
  readonly session: SessionIndex;
  readonly judgements: readonly Judgement[];
}

/** Judges a recorded session: a pure function of its messages and the timeouts it is measured against. */
export function judgeSession(transcript: SessionTranscript, options: JudgeOptions): SessionVerdict {
  const session = indexSession(transcript);
  return { session, judgements: JUDGES.map((judge) => judge(session, options)) };
}
