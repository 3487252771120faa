import type { OnProbeEvent, OnProgress, ProbeEvent } from '../api/on-progress.js';
import { STATUS_WORDS } from '../probe/probe-types.js';
import { stallNotice } from '../probe/stall.js';
import { displayText } from '../text/display-text.js';
import { durationWords } from '../text/duration.js';
import { terminalProgress } from './terminal-progress.js';

/** A probe event as the line written on standard error: which check, its limit as it starts, its outcome as it ends. */
export function probeEventLine(event: ProbeEvent): string {
  if (event.kind === 'stalled') return `probe ${event.check}: ${stallNotice(event.stall)}`;
  const head = `probe [${event.index + 1}/${event.total}] ${event.check}`;
  if (event.kind === 'check-started') {
    const limit = event.limit;
    return limit === undefined
      ? `${head}: started`
      : `${head}: started, waiting up to ${durationWords(limit.ms)} for ${limit.tool} (${limit.waitsFor})`;
  }
  return `${head}: ${STATUS_WORDS[event.status]} after ${durationWords(event.durationMs)}: ${event.summary}`;
}

/**
 * How a command that runs the probe follows it on standard error: a line as each check starts and ends and the moment
 * the long tool stalls, whether or not standard error is a terminal (a log shows what the probe waits for); with
 * `quiet`, none of them. The terminal's counter stays for the other stages (the fixtures, the operations); while the
 * probe's checks run, their lines take its place.
 */
export function probeReporter(
  quiet: boolean,
  write: (line: string) => void = (line) => process.stderr.write(line),
  counter: { readonly onProgress: OnProgress; readonly done: () => void } = terminalProgress(),
): { readonly onProgress: OnProgress; readonly onProbeEvent?: OnProbeEvent; readonly done: () => void } {
  if (quiet) return counter;
  let probing = false;
  return {
    onProgress: (index, total, label) => {
      if (!probing) counter.onProgress(index, total, label);
    },
    onProbeEvent: (event) => {
      if (event.kind === 'check-started') probing = true;
      if (event.kind === 'check-ended' && event.index + 1 === event.total) probing = false;
      write(`${displayText(probeEventLine(event))}\n`);
    },
    done: counter.done,
  };
}
