import { factsOf } from '../spec/revision-facts.js';
import { ERROR_CODES } from '../protocol/error-codes.js';
import type { SpecVersion } from '../spec/revisions.js';
import type { Transport } from '../protocol/transports.js';
import type { CancelledCall } from './recorded-call.js';

/**
 * Behaviours of the official SDKs that explain a probe failure, each a row of docs/sdk-behaviours.md (with the
 * evidence for it there). A failure names the row whose symptom it shows, so the reader knows where the defect
 * lives (the SDK, not their handler) and what to do about it.
 */
export interface SdkBehaviour {
  /** The row's anchor in docs/sdk-behaviours.md. */
  readonly id: string;
  readonly says: string;
  /** The failure shows this behaviour's symptom. */
  readonly shows: (call: CancelledCall, session: ProbedSession) => boolean;
}

/** What a behaviour's symptom may depend on besides the call: the transport, whether the server gave a session, the revision. */
export interface ProbedSession {
  readonly transport: Transport;
  readonly hasSession: boolean;
  readonly revision: SpecVersion;
}

const errorOf = (call: CancelledCall) =>
  [...call.inbox.afterSilence, ...(call.inbox.response === undefined ? [] : [call.inbox.response])]
    .map((received) => received.message['error'] as { code?: unknown; message?: unknown } | undefined)
    .find((error) => error !== undefined);

export const SDK_BEHAVIOURS: readonly SdkBehaviour[] = [
  {
    id: 'py-http-answers-cancelled-32800',
    says:
      'the Python SDK (mcp) over Streamable HTTP answers each request it cancelled with the error -32800 "Request cancelled" when ' +
      'the handler settles, whatever the handler does: the reply comes from the SDK transport, not the tool',
    shows: (call) => {
      const error = errorOf(call);
      return error?.code === ERROR_CODES.requestCancelled && /request cancelled/i.test(String(error.message ?? ''));
    },
  },
  {
    id: 'v2-legacy-fallback-blind-to-cancel',
    says:
      "a server that answers the session revision over HTTP without a session (the TypeScript SDK v2's legacy stateless fallback) " +
      'handles each POST on a fresh server instance, so a POSTed notifications/cancelled reaches no running request: serve sessions, ' +
      'or serve the stateless revision, where closing the stream cancels',
    shows: (call, session) =>
      session.transport === 'streamable-http' &&
      !session.hasSession &&
      factsOf(session.revision)['http-cancel-signal'].value !== 'close-stream' &&
      call.inbox.afterSilenceCount > 0,
  },
];

/** The known SDK behaviour a failure about `call` shows, in a sentence that points at its row; or nothing. */
export function knownBehaviour(call: CancelledCall, session: ProbedSession): string | undefined {
  const row = SDK_BEHAVIOURS.find((behaviour) => behaviour.shows(call, session));
  return row === undefined ? undefined : `known SDK behaviour (docs/sdk-behaviours.md#${row.id}): ${row.says}`;
}
