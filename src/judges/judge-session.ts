import { JUDGE_DECLARATIONS } from './judge-catalog.js';
import type { JudgeOptions } from './judge-options.js';
import type { Judge, Judgement } from './judgement.js';
import { indexSession, type SessionIndex } from './session-requests.js';
import type { SessionTranscript } from './session-transcript.js';

/** Every judge, the server's first: the order of a report (the catalog's). */
export const JUDGES: readonly Judge[] = JUDGE_DECLARATIONS.map((declaration) => declaration.judge);

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
