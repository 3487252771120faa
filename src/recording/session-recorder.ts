import { closeSync, openSync, writeSync } from 'node:fs';
import type { Party, SessionMessage, SessionTranscript } from '../judges/session-transcript.js';
import { StreamBook, type StreamRecord } from '../judges/stream-records.js';
import { type TraceHeader, traceEndLine, traceHeaderLine, traceMessageLine, traceStreamLine } from '../judges/trace-format.js';
import { sessionEssentials } from '../judges/session-essentials.js';
import { METHODS } from '../protocol/methods.js';

/** Why a trace file cannot be opened for writing, in words (the proxy's and the probe's `--record`). */
export function traceOpenProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'its folder does not exist';
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'EACCES') return 'permission denied';
  return code ?? (error as Error).message;
}

/** What a trace says of a message too deeply nested to be written again (it parsed: JSON.parse does not recurse). */
const NOT_SERIALIZABLE = 'a JSON message nested too deep to be written again';

/** `value` as JSON text, or undefined when it is nested past the call stack. */
function serialized(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * JSON text laid out on several lines, on one: re-serialized, or (nested past the call stack) with its line breaks
 * made spaces, which in valid JSON are only ever whitespace between tokens (a string cannot hold a raw one).
 */
function compact(parsed: unknown, text: string): string {
  return serialized(parsed) ?? text.replace(/[\r\n]/g, ' ');
}

/** Notifications the judges read; the others (logging, list changes, …) are recorded but not kept. */
const JUDGED_NOTIFICATIONS: ReadonlySet<string> = new Set([METHODS.cancelled, METHODS.progress]);

/** A message the judges read: a request or a response (it has an id), or a notification they judge. */
function isJudged(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const { id, method } = message as { id?: unknown; method?: unknown };
  return id !== undefined || (typeof method === 'string' && JUDGED_NOTIFICATIONS.has(method));
}

/**
 * A session as it passes: each message to the trace file (when one is asked for) as it is seen, and what the
 * judges read of it (`sessionEssentials`, of the messages they judge) kept for the verdict at the end: memory
 * grows by the few hundred bytes of each request, response, cancellation and progress, not by their payloads. Trace line numbers are counted whether
 * or not a file is written, so a finding's line is the same in both.
 */
export class SessionRecorder {
  readonly #started = performance.now();
  /** When the recording started (ISO 8601), as a trace's header has it. */
  readonly startedAt = new Date().toISOString();
  readonly #messages: SessionMessage[] = [];
  readonly #transport: TraceHeader['transport'];
  readonly #streams = new StreamBook();
  #fd: number | undefined;
  #writeError: string | undefined;
  #line = 1;
  #relayed = 0;
  #endedAt: number | undefined;
  /** What each trace line goes through before it is written (the probe's removes its secrets a server echoed). */
  readonly #redact: (line: string) => string;

  constructor(
    header: Omit<TraceHeader, 'mcprelyTrace' | 'started'>,
    recordPath?: string,
    redact: (line: string) => string = (line) => line,
  ) {
    this.#transport = header.transport;
    this.#redact = redact;
    if (recordPath !== undefined) {
      this.#fd = openSync(recordPath, 'w');
      writeSync(this.#fd, traceHeaderLine({ mcprelyTrace: 1, ...header, started: this.startedAt }));
    }
  }

  #now(): number {
    return performance.now() - this.#started;
  }

  /**
   * A line one party sent; `cut` when it was longer than a recording keeps (it passed whole, it is recorded cut).
   * Its trace line, or undefined once the recording has ended.
   */
  message(from: Party, text: string, cut: boolean, stream?: string, eventId?: string): number | undefined {
    if (this.#endedAt !== undefined) return undefined;
    const at = this.#now();
    this.#line++;
    this.#relayed++;
    let parsed: unknown;
    let isJson = !cut;
    if (isJson)
      try {
        parsed = JSON.parse(text);
      } catch {
        isJson = false;
      }
    // A message laid out on several lines (an HTTP body may be) is written compact: a trace record is one line.
    const raw = isJson && /[\r\n]/.test(text) ? compact(parsed, text) : text;
    this.#write(traceMessageLine(at, from, raw, isJson, stream, eventId));
    if (isJson) this.#keep(at, from, parsed, stream, eventId);
    return this.#line;
  }

  /**
   * A message one party sent that the caller has parsed already (the probe, which reads each message whole): written
   * to the trace only when there is one, and never parsed again. Its trace line, or undefined once ended.
   */
  parsedMessage(from: Party, message: unknown, stream?: string, eventId?: string): number | undefined {
    if (this.#endedAt !== undefined) return undefined;
    const at = this.#now();
    this.#line++;
    this.#relayed++;
    if (this.#fd !== undefined) {
      const text = serialized(message);
      if (text === undefined) this.#write(traceMessageLine(at, from, NOT_SERIALIZABLE, false, stream, eventId));
      else this.#write(traceMessageLine(at, from, text, true, stream, eventId));
    }
    this.#keep(at, from, message, stream, eventId);
    return this.#line;
  }

  /** What the judges read of a message (each member of a batch), kept at the current line. */
  #keep(at: number, from: Party, parsed: unknown, stream: string | undefined, eventId: string | undefined): void {
    // A message an SSE event id came with is kept too: a resumption names it, and the judges find its stream by it.
    for (const member of Array.isArray(parsed) ? parsed : [parsed])
      if (isJudged(member) || eventId !== undefined)
        this.#messages.push({
          line: this.#line,
          at,
          from,
          ...(stream === undefined ? {} : { stream }),
          ...(eventId === undefined ? {} : { eventId }),
          message: sessionEssentials(member),
        });
  }

  /** An HTTP exchange's request, response headers or end: written to the trace and kept for the judges; its trace line. */
  stream(from: Party, stream: string, record: StreamRecord): number | undefined {
    if (this.#endedAt !== undefined) return undefined;
    const at = this.#now();
    this.#line++;
    this.#write(traceStreamLine(at, from, stream, record));
    this.#streams.add(stream, from, record, { line: this.#line, at });
    return this.#line;
  }

  /** The session as seen so far, for judging it as it goes (the same arrays the verdict will read; nothing copied). */
  snapshot(): SessionTranscript {
    return this.#transcript(this.#endedAt ?? this.#now());
  }

  /** Stops recording (`reason`: how the session ended); the session as the judges read it. */
  end(reason: string): SessionTranscript {
    if (this.#endedAt === undefined) {
      this.#endedAt = this.#now();
      this.#write(traceEndLine(this.#endedAt, reason));
      this.#close();
    }
    return this.#transcript(this.#endedAt);
  }

  #transcript(endedAt: number): SessionTranscript {
    const streams = this.#streams.streams.length > 0 ? { streams: this.#streams.streams } : {};
    return { transport: this.#transport, messages: this.#messages, ...streams, endedAt };
  }

  /** Why the trace file stopped being written (a full disk, a closed pipe), when it did: the session is still judged. */
  get writeError(): string | undefined {
    return this.#writeError;
  }

  /** One record to the trace file; the first failure to write stops the file (said once by `writeError`), not the session. */
  #write(text: string): void {
    if (this.#fd === undefined) return;
    try {
      writeSync(this.#fd, this.#redact(text));
    } catch (error) {
      this.#writeError = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      this.#close();
    }
  }

  #close(): void {
    if (this.#fd === undefined) return;
    const fd = this.#fd;
    this.#fd = undefined;
    try {
      closeSync(fd);
    } catch {
      // Nothing more can be written to it either way.
    }
  }

  /** How many messages passed (stream records not counted). */
  get messageCount(): number {
    return this.#relayed;
  }
}
