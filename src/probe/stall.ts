import { SDK_DEFAULT_REQUEST_TIMEOUT_MS } from '../spec/host-limits.js';
import { durationWords } from '../text/duration.js';
import { plural } from '../text/plural.js';

/**
 * What the first run of the long tool showed when it did not answer within the probe's limit and went quiet: no
 * response, and nothing at all for a long stretch at the end of the wait. The later checks read it instead of waiting
 * a full limit again to learn the same thing, and the report's summary leads with it.
 */
export interface Stall {
  readonly tool: string;
  /** The check whose run showed it. */
  readonly check: string;
  /** How long the probe waited for the response (ms). */
  readonly limitMs: number;
  /** How long nothing at all came for the request at the end of that wait (ms): since its last message, or since it was sent. */
  readonly silentMs: number;
  /** Progress notifications that came before the silence. */
  readonly progress: number;
  /** The timeouts the probe plays as a host's (the manifest's, the command line's, or its defaults), and where they come from. */
  readonly idleMs: number;
  readonly maxMs: number;
  readonly timeoutsFrom: string;
}

/** What a run that was not answered recorded, as `stallOf` reads it. */
export interface UnansweredRun {
  readonly tool: string;
  readonly check: string;
  readonly limitMs: number;
  /** When the request was sent and when its last message came, on one clock (the request's time when none came). */
  readonly sentAt: number;
  readonly lastMessageAt: number;
  readonly progress: number;
  readonly timeouts: { readonly idleMs: number; readonly maxMs: number; readonly source: string };
}

/**
 * The run stalled when it ended quiet: nothing for at least the idle timeout a host keeps, or, when the probe's limit is
 * shorter than that, for at least half of what it watched. A tool that kept sending progress is working, not stalled: the
 * later checks still learn from it (whether that progress stops after a cancellation). Pure.
 */
export function stallOf(run: UnansweredRun): Stall | undefined {
  const silentMs = Math.max(0, Math.round(run.sentAt + run.limitMs - run.lastMessageAt));
  if (silentMs < Math.min(run.timeouts.idleMs, run.limitMs / 2)) return undefined;
  return {
    tool: run.tool,
    check: run.check,
    limitMs: Math.round(run.limitMs),
    silentMs,
    progress: run.progress,
    idleMs: run.timeouts.idleMs,
    maxMs: run.timeouts.maxMs,
    timeoutsFrom: run.timeouts.source,
  };
}

/**
 * A host's idle timeout fires on every call of the tool: it was silent for at least the idle timeout, which nothing but
 * progress resets. Shorter than that, the probe saw too little to say (its limit, not the server's fault).
 */
export function hostGivesUp(stall: Stall): boolean {
  return stall.silentMs >= stall.idleMs;
}

/** What came before the silence, in words: "no message at all", or the progress and how long the quiet after it lasted. */
function quiet(stall: Stall): string {
  return stall.progress === 0
    ? 'no progress, no message at all'
    : `${plural(stall.progress, 'progress notification')} at first, then nothing for ${durationWords(stall.silentMs)}`;
}

/** The line told the moment the limit passes. */
export function stallNotice(stall: Stall): string {
  return (
    `${stall.tool} has not answered within ${durationWords(stall.limitMs)}: ${quiet(stall)}; ` +
    'the probe cancelled it, and the later checks will not wait for it again'
  );
}

/**
 * The summary's first line: the tool never answered, and what that means for a host's idle and maximum timeouts, with
 * the numbers the probe played.
 */
export function stallSummary(stall: Stall): string {
  const idle = durationWords(stall.idleMs);
  const max = durationWords(stall.maxMs);
  const seen = `no response within ${durationWords(stall.limitMs)} (${quiet(stall)})`;
  if (!hostGivesUp(stall))
    return (
      `${stall.tool} did not answer: ${seen}. The probe watched less than the idle timeout of ${idle} (${stall.timeoutsFrom}), so whether a host's idle ` +
      'timeout fires cannot be told: raise --max-time, or lower --idle-timeout to what your host keeps.'
    );
  const idleFires = stall.progress === 0 ? `after ${idle}` : `${idle} after its last progress`;
  return (
    `${stall.tool} never answered: ${seen}. A host keeping the idle timeout of ${idle} (${stall.timeoutsFrom}) gives up on every call ${idleFires}; ` +
    `one keeping only the maximum of ${max} gives up at ${max}; the TypeScript SDK's default request timeout ` +
    `(${durationWords(SDK_DEFAULT_REQUEST_TIMEOUT_MS)}) ends every call; a host with neither timeout waits for ever. ` +
    'Send progress while the work runs and answer (or fail) within the maximum.'
  );
}
