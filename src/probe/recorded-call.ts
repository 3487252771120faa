import type { CallInbox } from './call-inbox.js';

/**
 * One request as the probe recorded it, for a check's judgement: its id, when it was sent, and what its inbox kept of
 * the server's messages about it (the response, the progress counted and checked as it came, repeats, why it ended).
 * Data only: a judgement reads it and never waits on it.
 */
export interface RecordedCall {
  readonly id: number;
  readonly sentAt: number;
  readonly inbox: Readonly<
    Pick<
      CallInbox,
      | 'response'
      | 'progressCount'
      | 'progressValues'
      | 'notIncreasing'
      | 'progressAfterResponse'
      | 'repeatedResponses'
      | 'coalesced'
      | 'why'
      | 'lastMessageAt'
    >
  >;
}

/** A request the probe cancelled, as recorded: when, and what came for it after (see `CallInbox`). */
export interface CancelledCall {
  readonly id: number;
  readonly sentAt: number;
  readonly cancelledAt?: number;
  readonly inbox: Readonly<
    Pick<CallInbox, 'response' | 'afterSilence' | 'afterSilenceCount' | 'onOtherStreams' | 'progressAtCancel' | 'progressCount'>
  >;
}
