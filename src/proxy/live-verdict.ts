import type { JudgeOptions } from '../judges/judge-options.js';
import { judgeSession } from '../judges/judge-session.js';
import { LiveTelling } from '../judges/live-telling.js';
import type { SessionTranscript } from '../judges/session-transcript.js';

/** A failed case as the proxy tells it while the session goes on. */
export interface LiveFailure {
  readonly judge: string;
  readonly party: string;
  readonly message: string;
  /** The trace line to point at: the first of `lines`, those the case rests on. */
  readonly line: number;
  readonly lines: readonly number[];
}

/**
 * The session judged as it goes (`LiveTelling`: every `intervalMs`, at most about 5% of the time): the judges run on
 * what was seen so far (a timeout can pass with no message at all), and each failed case not told yet goes to `tell`,
 * once. The judges' failures only grow with the session — a late message never undoes one — so what is told stands
 * in the verdict at the end (a case may be told again in new words as it grows: a timeout passed without a
 * cancellation, then the cancellation came late).
 */
export class LiveVerdict extends LiveTelling<LiveFailure> {
  constructor(
    session: () => SessionTranscript,
    options: JudgeOptions,
    tell: (failure: LiveFailure) => void,
    intervalMs = 1000,
    /** Judging threw (a judge's bug on a session nobody foresaw): live judging stops, said once; the relay goes on. */
    failed: (error: unknown) => void = () => undefined,
  ) {
    super({
      judge: () => failedCases(session(), options),
      // Told once per failure as first seen; a case that changes later (a timeout passed, then a late
      // cancellation) is told again in its new words, never dropped.
      key: (failure) => ({ about: `${failure.judge} ${failure.lines.join(',')} ${failure.message}`, says: '' }),
      tell,
      failed,
      intervalMs,
    });
  }
}

/** Every failed case of the session's judges so far, with the trace lines it rests on. */
function failedCases(transcript: SessionTranscript, options: JudgeOptions): LiveFailure[] {
  if (transcript.messages.length === 0) return [];
  return judgeSession(transcript, options).judgements.flatMap((judgement) =>
    judgement.cases
      .filter((one) => one.status === 'fail')
      .map((one) => ({ judge: judgement.judge, party: judgement.party, message: one.message, line: one.lines[0] ?? 1, lines: one.lines })),
  );
}
