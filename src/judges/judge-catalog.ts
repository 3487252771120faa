import { clientCancelsOnIdleTimeout } from './rules/client-cancels-on-idle-timeout.js';
import { clientCancelsOnlyPending } from './rules/client-cancels-only-pending.js';
import { clientCancelsWithRevisionSignal } from './rules/client-cancels-with-revision-signal.js';
import { clientEnforcesMaximum } from './rules/client-enforces-maximum.js';
import { clientRecoversLostRequest } from './rules/client-recovers-lost-request.js';
import { clientRequestIdsUnique } from './rules/client-request-ids-unique.js';
import { clientResumesOnlyPending } from './rules/client-resumes-only-pending.js';
import { clientResumesOnlyWhereSupported } from './rules/client-resumes-only-where-supported.js';
import { clientRetryKeepsKey } from './rules/client-retry-keeps-key.js';
import { serverAnswersOnlyRequests } from './rules/server-answers-only-requests.js';
import { serverMessagesOnOwnStream } from './rules/server-messages-on-own-stream.js';
import { serverProgressForActiveRequests } from './rules/server-progress-for-active-requests.js';
import { serverProgressIncreases } from './rules/server-progress-increases.js';
import { serverSilentAfterCancel } from './rules/server-silent-after-cancel.js';
import { serverSseHeaders } from './rules/server-sse-headers.js';
import { serverStreamsProgress } from './rules/server-streams-progress.js';

/**
 * The catalog of session judges: every judge, declared once in its own file under rules/ (id = file name), the
 * server's first — the order of a report. Adding a judge is its file and a line here; `JUDGES`, `SESSION_RULES` and
 * `SessionJudgeId` follow from this list.
 */
export const JUDGE_DECLARATIONS = [
  serverSilentAfterCancel,
  serverProgressIncreases,
  serverProgressForActiveRequests,
  serverAnswersOnlyRequests,
  serverSseHeaders,
  serverMessagesOnOwnStream,
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
] as const;

/** The id of a session judge: the catalog's cross-references (probe checks, scenarios) name judges by this type. */
export type SessionJudgeId = (typeof JUDGE_DECLARATIONS)[number]['id'];
