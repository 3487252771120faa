import { html } from '../html/escape.js';
import { htmlPage } from '../html/page.js';
import { SCROLL_BOX_END, scrollBox, scrollBoxStart } from '../html/scroll-box.js';
import { sequenceSvg } from '../html/sequence-svg.js';
import type { SessionVerdict } from '../judges/judge-session.js';
import type { JudgedCase, Judgement } from '../judges/judgement.js';
import type { SessionClaim } from '../judges/session-drift.js';
import type { SessionRequest } from '../judges/session-requests.js';
import type { SessionMessage, SessionStream } from '../judges/session-transcript.js';
import type { TraceHeader } from '../judges/trace-format.js';
import { STATUS_WORDS } from '../live/outcome.js';
import { sequenceDiagram } from '../review/mermaid.js';
import type { TranscriptEntry } from '../simulator/transcript.js';
import { TRACE_TRANSPORT } from '../protocol/transports.js';

/** What the page of one recorded session shows. */
export interface SessionPageInput {
  readonly trace: string;
  readonly header: TraceHeader;
  readonly verdict: SessionVerdict;
  readonly manifest?: string;
  readonly claims?: readonly SessionClaim[];
}

/** How much a page draws: the diagrams of this many failed cases, and this many messages of the whole session. */
export const SESSION_PAGE_BUDGET = { cases: 20, timeline: 150, messagesPerRequest: 30 } as const;

const MARK: Readonly<Record<Judgement['status'], string>> = { pass: 'pass', fail: 'fail', inconclusive: 'skip', 'not-observable': 'not' };
const CLAIM_MARK: Readonly<Record<SessionClaim['status'], string>> = { seen: 'pass', contradicted: 'fail', inconclusive: 'skip' };

function mark(kind: string, word: string): string {
  return `<span class="mark mark-${kind}">${html(word)}</span>`;
}

/** A message as a diagram row: its time, its stream over HTTP, the message (the diagram summarises it to its method and id). */
function entry(message: SessionMessage): TranscriptEntry {
  const stream = message.stream === undefined ? '' : `[${message.stream}] `;
  return {
    at: message.at,
    lane: message.from === 'client' ? 'client → server' : 'server → client',
    text: `${Math.round(message.at)} ms ${stream}${JSON.stringify(message.message)}`,
  };
}

/** A stream's end as a note over the party that ended it (on 2026-07-28 the client's close is the cancellation). */
function closedEntry(stream: SessionStream): TranscriptEntry[] {
  const closed = stream.closed;
  if (closed === undefined) return [];
  return [{ at: closed.at, lane: closed.by, text: `${Math.round(closed.at)} ms: closed ${stream.id}` }];
}

/** The trace lines of a stream's records: its request, its response, its end. */
function streamLines(stream: SessionStream): number[] {
  return [
    stream.opened.line,
    ...(stream.response === undefined ? [] : [stream.response.line]),
    ...(stream.closed === undefined ? [] : [stream.closed.line]),
  ];
}

/**
 * The messages a case rests on, in time order with the case as a note where it was decided: every message of each
 * request its trace lines name (or that was sent on a stream they name), and the messages at those lines themselves.
 */
function caseEntries(verdict: SessionVerdict, judgement: Judgement, one: JudgedCase): TranscriptEntry[] {
  const lines = new Set(one.lines);
  const { requests, transcript } = verdict.session;
  const streams = (transcript.streams ?? []).filter((stream) => streamLines(stream).some((line) => lines.has(line)));
  const named = requests.filter(
    (request) => requestLines(request).some((line) => lines.has(line)) || streams.some((stream) => stream.id === request.sent.stream),
  );
  const messages = new Set<SessionMessage>(named.flatMap(requestMessages));
  for (const message of transcript.messages) if (lines.has(message.line)) messages.add(message);
  const drawnStreams = new Set([...streams.map((stream) => stream.id), ...named.flatMap((request) => request.sent.stream ?? [])]);
  const entries = [
    ...[...messages].map(entry),
    ...(transcript.streams ?? []).filter((stream) => drawnStreams.has(stream.id)).flatMap(closedEntry),
  ].sort((a, b) => a.at - b.at);
  const times = [
    ...transcript.messages.filter((message) => lines.has(message.line)).map((message) => message.at),
    ...streams
      .flatMap((stream) => [stream.opened, stream.response, stream.closed])
      .flatMap((moment) => (moment !== undefined && lines.has(moment.line) ? [moment.at] : [])),
  ];
  const decidedAt = times.length === 0 ? 0 : Math.max(...times);
  const note: TranscriptEntry = { at: decidedAt, lane: judgement.party, text: `${judgement.judge}: ${one.message}` };
  const before = entries.filter((row) => row.at <= decidedAt);
  return [...before, note, ...entries.slice(before.length)];
}

function requestMessages(request: SessionRequest): SessionMessage[] {
  const progress = request.progress;
  const kept =
    progress.length > SESSION_PAGE_BUDGET.messagesPerRequest
      ? [...progress.slice(0, SESSION_PAGE_BUDGET.messagesPerRequest - 1), progress.at(-1) as SessionMessage]
      : progress;
  return [
    request.sent,
    ...kept,
    ...(request.cancelled === undefined ? [] : [request.cancelled]),
    ...(request.response === undefined ? [] : [request.response]),
  ].filter(
    // A cancellation by closing the stream is drawn as the stream's close, not as a message.
    (message) => typeof message.message !== 'object' || message.message === null || !('closedStream' in message.message),
  );
}

function requestLines(request: SessionRequest): number[] {
  return requestMessages(request).map((message) => message.line);
}

/** A diagram with its caption: as HTML under it, and as text (escaped once, where it is written) naming it. */
function figure(id: string, caption: { readonly html: string; readonly text: string }, entries: readonly TranscriptEntry[]): string {
  const mermaid = sequenceDiagram(entries);
  const label = `Sequence diagram: ${caption.text}`;
  return [
    `<figure data-diagram="${html(id)}">`,
    `<figcaption>${caption.html}</figcaption>`,
    scrollBox(label, sequenceSvg(mermaid, label, id)),
    `<details><summary>Mermaid source</summary><pre>${html(mermaid)}</pre></details>`,
    '</figure>',
  ].join('\n');
}

function plainCaption(text: string): { html: string; text: string } {
  return { html: html(text), text };
}

/**
 * One recorded session as a page, complete in itself (no script fetched, nothing loaded): the judges' verdict, the
 * manifest's claims when one was given, a sequence diagram of the messages that decided each failure (the evidence
 * page's diagrams, drawn from the real messages, times in ms since the recording started), and the session's first
 * messages as a timeline. Pure: the same verdict gives the same bytes.
 */
export function sessionPage(input: SessionPageInput): string {
  const { verdict, header } = input;
  const judgements = verdict.judgements;
  const failed = judgements.filter((one) => one.status === 'fail');
  const passed = judgements.filter((one) => one.status === 'pass').length;
  const contradicted = (input.claims ?? []).filter((claim) => claim.status === 'contradicted').length;
  const transcript = verdict.session.transcript;
  const broken = [
    ...(failed.length > 0 ? [`${failed.length} judge(s) failed`] : []),
    ...(contradicted > 0 ? [`${contradicted} claim(s) of the manifest contradicted`] : []),
  ];
  const verdictText =
    broken.length > 0
      ? broken.join(', ')
      : passed > 0
        ? `No judge failed: ${passed} passed, the others were not exercised or not observable`
        : 'Inconclusive: no judge was exercised by this session; nothing passed';
  const sections: { id: string; label: string; body: string }[] = [];
  sections.push({
    id: 'judges',
    label: 'The judges',
    body: [
      scrollBoxStart('The judges'),
      '<table>',
      '<caption class="meta">Each judge, the party its rule binds, and what it made of the session</caption>',
      '<thead><tr><th scope="col">Judge</th><th scope="col">Party</th><th scope="col">Status</th><th scope="col">Why</th></tr></thead>',
      '<tbody>',
      ...judgements.map(
        (one) =>
          `<tr><td><code>${html(one.judge)}</code></td><td>${html(one.party)}</td><td>${mark(MARK[one.status], STATUS_WORDS[one.status])}</td>` +
          `<td>${html(one.summary)}</td></tr>`,
      ),
      '</tbody>',
      '</table>',
      SCROLL_BOX_END,
    ].join('\n'),
  });
  if (input.claims !== undefined)
    sections.push({
      id: 'claims',
      label: 'The claims of the manifest',
      body: [
        `<p class="meta">Judged on this session's traffic; a claim not seen stands as declared in <code>${html(input.manifest ?? '')}</code>.</p>`,
        '<ul class="checks">',
        ...input.claims.map(
          (claim) =>
            `<li>${mark(CLAIM_MARK[claim.status], claim.status)} <code>${html(claim.operation)}</code> ` +
            `<code>${html(claim.field)}: ${html(claim.value)}</code> ` +
            `<span class="because">— ${html(claim.why)}</span></li>`,
        ),
        '</ul>',
      ].join('\n'),
    });
  const cases = failed.flatMap((judgement) => judgement.cases.filter((one) => one.status === 'fail').map((one) => ({ judgement, one })));
  if (cases.length > 0)
    sections.push({
      id: 'failures',
      label: 'What decided each failure',
      body: [
        ...cases.slice(0, SESSION_PAGE_BUDGET.cases).map(({ judgement, one }, index) => {
          const lines = `(trace line${one.lines.length === 1 ? '' : 's'} ${one.lines.join(', ')})`;
          const caption = {
            html: `${mark('fail', 'failed')} <code>${html(judgement.judge)}</code>: ${html(one.message)} ${html(lines)}`,
            text: `failed ${judgement.judge}: ${one.message} ${lines}`,
          };
          return figure(`case-${index + 1}`, caption, caseEntries(verdict, judgement, one));
        }),
        ...(cases.length > SESSION_PAGE_BUDGET.cases
          ? [`<p class="meta">${cases.length - SESSION_PAGE_BUDGET.cases} more failed case(s): mcprely audit lists them all.</p>`]
          : []),
      ].join('\n'),
    });
  const shown = transcript.messages.slice(0, SESSION_PAGE_BUDGET.timeline);
  const streams = new Set(shown.map((message) => message.stream));
  const until = shown.at(-1)?.at ?? 0;
  const timeline = [
    ...shown.map(entry),
    ...(transcript.streams ?? [])
      .filter((stream) => streams.has(stream.id) && (stream.closed?.at ?? Infinity) <= until)
      .flatMap(closedEntry),
  ].sort((a, b) => a.at - b.at);
  sections.push({
    id: 'timeline',
    label: 'The session',
    body:
      shown.length === 0
        ? '<p class="meta">The session has no request, response, cancellation or progress to draw.</p>'
        : [
            figure('timeline', plainCaption(`The first ${shown.length} of ${transcript.messages.length} judged message(s)`), timeline),
            ...(transcript.messages.length > shown.length
              ? [`<p class="meta">${transcript.messages.length - shown.length} later message(s) are in the trace, not drawn here.</p>`]
              : []),
          ].join('\n'),
  });
  const revision = verdict.session.revision ?? 'revision not shown';
  return htmlPage({
    title: `mcprely audit: ${input.trace}`,
    header: [
      `<h1>Session <code>${html(input.trace)}</code></h1>`,
      `<p class="meta">${html(header.transport === TRACE_TRANSPORT['streamable-http'] ? 'Streamable HTTP' : 'stdio')} · ${html(revision)} · ` +
        `${html(header.server ?? 'server not named')} · recorded ${html(header.started)} · ${Math.round(transcript.endedAt)} ms · ` +
        `${transcript.messages.length} judged message(s)</p>`,
      `<div class="verdict ${broken.length === 0 && passed > 0 ? 'ready' : 'refused'}">` +
        `<p class="verdict-text" data-verdict>${html(verdictText)}</p></div>`,
    ].join('\n'),
    contents: sections.map(({ id, label }) => ({ id, label })),
    main: sections.map(({ id, label, body }) => `<section id="${id}">\n<h2>${html(label)}</h2>\n${body}\n</section>`).join('\n'),
    footer: '<p class="meta">Written by mcprely audit from the trace: nothing on this page was fetched or run.</p>',
  });
}
