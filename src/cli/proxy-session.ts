import type { JudgeOptions } from '../judges/judge-options.js';
import { judgeSession } from '../judges/judge-session.js';
import { judgementLines } from '../judges/session-rules.js';
import { LiveVerdict } from '../proxy/live-verdict.js';
import { SessionRecorder, traceOpenProblem } from '../recording/session-recorder.js';
import { displayText } from '../text/display-text.js';
import { plural } from '../text/plural.js';

/** The trace recorder of `--record` (or one that only counts, without it); undefined, with the error said, when it cannot be written. */
export function openRecorder(
  header: ConstructorParameters<typeof SessionRecorder>[0],
  record: string | undefined,
  redact?: (line: string) => string,
): SessionRecorder | undefined {
  try {
    return new SessionRecorder(header, record, redact);
  } catch (error) {
    process.stderr.write(`error: cannot write the trace ${displayText(record ?? '')}: ${displayText(traceOpenProblem(error))}\n`);
    return undefined;
  }
}

/** Ends the recording (`how` the session ended) and writes the judges' verdict to stderr, never to stdout. */
export function writeVerdict(
  recorder: SessionRecorder,
  how: string,
  options: { readonly record?: string; readonly judge: JudgeOptions },
): void {
  const verdict = judgeSession(recorder.end(how), options.judge);
  const lines = [
    `mcprely proxy: ${plural(recorder.messageCount, 'message')} relayed, ${how}` +
      (options.record === undefined ? '' : `; trace in ${displayText(options.record)} (mcprely audit judges it again)`) +
      (recorder.writeError === undefined ? '' : `; the trace stopped being written (${displayText(recorder.writeError)}): it is cut short`),
    ...judgementLines(verdict.judgements),
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
}

/** Judges the session as it goes, each new failure told on stderr at once; the returned function stops it. */
export function judgeAsItGoes(recorder: SessionRecorder, options: { readonly judge: JudgeOptions }): () => void {
  const live = new LiveVerdict(
    () => recorder.snapshot(),
    options.judge,
    (failure) =>
      process.stderr.write(
        `mcprely proxy: FAIL ${failure.judge} (${failure.party}): ${displayText(failure.message)} (trace line ${failure.line})\n`,
      ),
    1000,
    (error) =>
      process.stderr.write(
        `mcprely proxy: judging as it goes stopped (${displayText(error instanceof Error ? error.message : String(error))}); ` +
          'the relay and the recording go on\n',
      ),
  );
  live.start();
  return () => live.stop();
}
