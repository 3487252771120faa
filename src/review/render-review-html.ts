import type { Finding } from '../findings/finding.js';
import { fragmentId, html } from '../html/escape.js';
import { htmlPageChunks, type PageSpec } from '../html/page.js';
import { SCROLL_BOX_END, scrollBox, scrollBoxStart } from '../html/scroll-box.js';
import { sequenceSvg } from '../html/sequence-svg.js';
import { SECTION_TITLES, viewOf } from './build-review.js';
import type { ChecklistLine, FixtureOutcome, Mark, OperationReview, Refusal, Review, ReviewView, Section } from './review-types.js';
import { plural } from '../text/plural.js';

/** What a page around a review adds to it: the verdict it states, its own sections, the links and transcripts it has. */
export interface ReviewPageOptions {
  readonly title: string;
  /** The verdict in words and whether it is production-ready (the review's own, or the evidence index's with its basis). */
  readonly verdict: { readonly text: string; readonly productionReady: boolean };
  /** Lines under the verdict (already HTML): what it rests on. */
  readonly basis: readonly string[];
  /** Sections after the verdict and before the operations (already HTML), such as the live run. */
  readonly leading?: readonly PageSection[];
  /** Sections after the operations (already HTML), such as the bundle's files. */
  readonly trailing?: readonly PageSection[];
  /** The address of a rule's page, when known. */
  readonly ruleLink: (ruleId: string) => string | undefined;
  /** A fixture's transcript, when the page has it: shown collapsed under the fixture. */
  readonly transcript?: (fixture: FixtureOutcome, operation: string) => string | undefined;
  /** Where a fixture's transcript is as a file (relative to the page), for the ones past the page's budget. */
  readonly transcriptFile?: (fixture: FixtureOutcome, operation: string) => string | undefined;
  readonly footer: string;
}

export interface PageSection {
  readonly id: string;
  readonly label: string;
  /** The section's content (already HTML): whole, or in pieces made as the page is written (read once). */
  readonly html: string | Iterable<string>;
}

/**
 * How much a page draws and embeds: past these, a diagram is left to review.md and a transcript to its file, so a
 * manifest of thousands of operations still gives a page a browser opens (its tables and verdicts stay whole).
 */
export const PAGE_BUDGET = { diagrams: 300, transcriptCharacters: 500_000 } as const;

/** The basis line of a verdict made from the manifest alone (a review, or a bundle without a live run). */
export const DECLARED_BASIS =
  'Basis: <strong>the manifest as declared</strong>. Every fixture ran on mcprely’s reference implementation with the ' +
  'manifest’s policy; no server was checked. Run <code>mcprely evidence --stdio</code> or <code>--url</code> to check the claims on the wire.';

/** What the page has drawn and embedded so far. */
interface Spent {
  diagrams: number;
  transcriptCharacters: number;
  /** A transcript did not fit: no later one is embedded. */
  full: boolean;
}

/**
 * The review as one HTML page: the verdict and its reasons first, then each operation with its cancellation
 * wire, race tables and their diagrams (drawn as SVG), the checklist sections, lint findings linked to their
 * rule pages and the fixtures with pass or fail (and their transcripts, collapsed, when the page has them).
 */
export function renderReviewHtml(review: Review | ReviewView, options: ReviewPageOptions): string {
  let text = '';
  for (const chunk of renderReviewHtmlChunks(review, options)) text += chunk;
  return text;
}

/** The same page in pieces: the operations' sections are made one at a time, as they are written. */
export function* renderReviewHtmlChunks(shown: Review | ReviewView, options: ReviewPageOptions): Generator<string> {
  const review = viewOf(shown);
  const spent: Spent = { diagrams: 0, transcriptCharacters: 0, full: false };
  const findingsSection: PageSection[] =
    review.otherFindings.length === 0
      ? []
      : [
          {
            id: 'manifest-findings',
            label: 'Server and manifest findings',
            html: `<h2>Server and manifest findings</h2>\n${findingsHtml(review.otherFindings, options)}`,
          },
        ];
  const before: PageSection[] = [
    { id: 'verdict', label: 'Verdict', html: verdictHtml(review, options) },
    ...(options.leading ?? []),
    ...findingsSection,
  ];
  const after = options.trailing ?? [];
  // The operations' sections are made one at a time as the page is written; their labels come from the summaries.
  function* main(): Generator<string> {
    let first = true;
    function* next(id: string, body: string | Iterable<string>): Generator<string> {
      yield `${first ? '' : '\n'}<section id="${id}"${id.startsWith('op-') ? ' class="operation"' : ''}>\n`;
      first = false;
      if (typeof body === 'string') yield body;
      else yield* body;
      yield '\n</section>';
    }
    for (const { id, html } of before) yield* next(id, html);
    for (const operation of review.operations) yield* next(fragmentId('op', operation.name), operationHtml(operation, options, spent));
    for (const { id, html } of after) yield* next(id, html);
  }
  function* contents(): Generator<PageSpec['contents'][number]> {
    for (const { id, label } of before) yield { id, label };
    for (const { name } of review.summaries) yield { id: fragmentId('op', name), label: name };
    for (const { id, label } of after) yield { id, label };
  }
  const fixtures = review.fixtures;
  yield* htmlPageChunks({
    title: options.title,
    header:
      `<h1>${html(options.title)}</h1>\n<p class="meta">Manifest <code>${html(review.file)}</code> · MCP ${html(review.specVersion)} · ` +
      `${plural(review.replicas, 'replica')} · ${plural(review.operations.length, 'operation')} · fixtures: ` +
      `${fixtures.passed} of ${fixtures.total} passed on the reference implementation</p>`,
    contents: contents(),
    main: main(),
    footer: options.footer,
  });
}

/** The verdict section in pieces: the refusals of every operation and the table of their verdicts, a line at a time. */
function* verdictHtml(review: ReviewView, options: ReviewPageOptions): Generator<string> {
  const ready = options.verdict.productionReady;
  yield [
    '<h2>Verdict</h2>',
    `<div class="verdict ${ready ? 'ready' : 'refused'}">`,
    `<p class="verdict-text" data-verdict>${html(options.verdict.text)}</p>`,
    ...options.basis.map((line) => `<p>${line}</p>`),
  ].join('\n');
  let listed = false;
  const refusalItem = (refusal: Refusal) => {
    const text = `${listed ? '' : '\n<p>Refused because:</p>\n<ul>'}\n${refusalLine(refusal)}`;
    listed = true;
    return text;
  };
  for (const refusal of review.refusals) yield refusalItem(refusal);
  for (const operation of review.summaries)
    for (const refusal of operation.verdict.refusals)
      yield refusalItem({ ...refusal, condition: `${operation.name}: ${refusal.condition}` });
  if (listed) yield '\n</ul>';
  yield [
    '',
    '</div>',
    scrollBoxStart('Each operation and its own verdict'),
    '<table>',
    '<caption class="meta">Each operation and its own verdict</caption>',
    '<thead><tr><th scope="col">operation</th><th scope="col">method</th><th scope="col">retry</th><th scope="col">verdict</th></tr></thead>',
    '<tbody>\n',
  ].join('\n');
  let first = true;
  for (const operation of review.summaries) {
    const count = operation.verdict.refusals.length;
    const cell = operation.verdict.productionReady ? `${mark('ok', 'ready')}` : `${mark('fail', 'refused')} ${plural(count, 'refusal')}`;
    yield `${first ? '' : '\n'}<tr><td><a href="#${fragmentId('op', operation.name)}">${html(operation.name)}</a></td>` +
      `<td><code>${html(operation.method)}</code></td><td>${html(operation.retry.classification)}</td><td>${cell}</td></tr>`;
    first = false;
  }
  yield `\n</tbody>\n</table>\n${SCROLL_BOX_END}`;
}

function operationHtml(operation: OperationReview, options: ReviewPageOptions, spent: Spent): string {
  const id = fragmentId('op', operation.name);
  const parts = [`<h2>${html(operation.name)}</h2>`];
  if (operation.description !== undefined) parts.push(`<p><em>${html(operation.description)}</em></p>`);
  parts.push(
    `<p class="meta"><code>${html(operation.method)}</code> · side effect: ${html(operation.sideEffect)} · ` +
      `transports: ${html(operation.transports.join(', '))}</p>`,
  );
  parts.push(
    '<h3>Verdict</h3>',
    operation.verdict.productionReady
      ? `<p>${mark('ok', 'ready')} production-ready</p>`
      : `<p>${mark('fail', 'refused')} not production-ready:</p>\n${refusalList(operation.verdict.refusals)}`,
  );
  parts.push(
    '<h3>Cancellation wire</h3>',
    table(
      `Cancellation wire of ${operation.name}`,
      ['transport', 'client signal', 'server', 'as required'],
      operation.cancellationWire.map((row) => [
        html(row.transport),
        html(row.clientSignal),
        html(row.server),
        `${mark(row.mark, row.mark)}${becauseHtml(row)}`,
      ]),
    ),
  );
  for (const raceTable of operation.raceTables) {
    parts.push(
      `<h3>Race table (${html(raceTable.transport)}, run on the reference coordinator with this policy)</h3>`,
      table(
        `Race table (${raceTable.transport}) of ${operation.name}`,
        ['event order', 'server terminal state', 'final response', 'client behaviour', 'as required'],
        raceTable.rows.map((row) => [
          html(row.order),
          html(row.terminalState),
          html(row.finalResponse),
          html(row.clientBehaviour),
          row.asRequired ? mark('ok', 'yes') : mark('fail', 'no'),
        ]),
      ),
    );
    for (const [index, row] of raceTable.rows.entries()) {
      const diagramId = `${id}-${raceTable.transport}-${index + 1}`;
      const caption = `${row.order} (${raceTable.transport})`;
      if (spent.diagrams >= PAGE_BUDGET.diagrams) {
        parts.push(
          `<p class="meta">${html(caption)}: the diagram is in review.md (this page draws the first ${PAGE_BUDGET.diagrams}).</p>`,
        );
        continue;
      }
      spent.diagrams++;
      parts.push(
        `<figure data-diagram="${html(diagramId)}">`,
        `<figcaption>${html(caption)} ${row.asRequired ? mark('ok', 'as required') : mark('fail', 'not as required')}</figcaption>`,
        scrollBox(`Sequence diagram: ${caption}`, sequenceSvg(row.mermaid, `Sequence diagram: ${caption}`, diagramId)),
        `<details><summary>Mermaid source</summary><pre>${htmlLines(row.mermaid)}</pre></details>`,
        '</figure>',
      );
    }
  }
  for (const [key, title] of Object.entries(SECTION_TITLES)) {
    parts.push(`<h3>${html(`${title.charAt(0).toUpperCase()}${title.slice(1)}`)}</h3>`);
    if (key === 'tasks') {
      parts.push(operation.tasks === null ? '<p>Not a task.</p>' : checks(operation.tasks));
      continue;
    }
    if (key === 'retry') parts.push(`<p><strong>${html(operation.retry.classification)}</strong>: ${html(operation.retry.reason)}.</p>`);
    if (key === 'idempotencyBoundary') {
      const boundary = operation.idempotencyBoundary;
      const items = [
        ...(boundary.inside.length > 0 ? [`<li>inside the atomic commit: ${html(boundary.inside.join(', '))}</li>`] : []),
        ...(boundary.outside.length > 0 ? [`<li>outside it: ${html(boundary.outside.join(', '))}</li>`] : []),
      ];
      if (items.length > 0) parts.push(`<ul>\n${items.join('\n')}\n</ul>`);
    }
    parts.push(checks(operation[key as Exclude<keyof typeof SECTION_TITLES, 'tasks'>]));
  }
  parts.push('<h3>Lint findings</h3>', operation.findings.length === 0 ? '<p>None.</p>' : findingsHtml(operation.findings, options));
  parts.push(
    '<h3>Required fixtures</h3>',
    operation.fixtures.length === 0 ? '<p>None apply.</p>' : fixturesHtml(operation.fixtures, operation.name, options, spent),
  );
  if (operation.lintOnly.length > 0)
    parts.push(
      '<p>Lint-only (no fixture can show these, so none passes them):</p>',
      `<ul>${operation.lintOnly.map(({ rule, reason }) => `<li><code>${html(rule)}</code>: lint-only because ${html(reason)}</li>`).join('')}</ul>`,
    );
  return parts.join('\n');
}

function fixturesHtml(fixtures: readonly FixtureOutcome[], operation: string, options: ReviewPageOptions, spent: Spent): string {
  return `<ul class="checks">\n${fixtures
    .map((fixture) => {
      const result = fixture.passed ? mark('pass', 'pass') : mark('fail', 'fail');
      const failures = fixture.failures.length === 0 ? '' : ` <span class="because">${html(fixture.failures.join('; '))}</span>`;
      const head = `${result} <code>${html(fixture.id)}</code> [${html(fixture.transport)}]${failures}`;
      const attributes = `data-fixture="${html(fixture.id)}" data-result="${fixture.passed ? 'pass' : 'fail'}"`;
      // Transcripts are embedded in order until one does not fit; from then on each is a link, never read.
      let transcript = spent.full ? undefined : options.transcript?.(fixture, operation);
      if (transcript !== undefined && spent.transcriptCharacters + transcript.length > PAGE_BUDGET.transcriptCharacters) {
        transcript = undefined;
        spent.full = true;
      }
      if (transcript === undefined) {
        const file = options.transcriptFile?.(fixture, operation);
        return `<li ${attributes}>${head}${file === undefined ? '' : ` <a href="${html(file)}">transcript</a>`}</li>`;
      }
      spent.transcriptCharacters += transcript.length;
      return `<li ${attributes}><details><summary>${head}</summary><pre>${htmlLines(transcript)}</pre></details></li>`;
    })
    .join('\n')}\n</ul>`;
}

export function findingsHtml(findings: readonly Finding[], options: Pick<ReviewPageOptions, 'ruleLink'>): string {
  return `<ul class="checks">\n${findings
    .map((finding) => {
      const link = options.ruleLink(finding.ruleId);
      const rule =
        link === undefined ? `<code>${html(finding.ruleId)}</code>` : `<a href="${html(link)}"><code>${html(finding.ruleId)}</code></a>`;
      const state =
        finding.suppression === undefined
          ? mark(finding.severity === 'error' ? 'fail' : finding.severity === 'warn' ? 'warn' : 'note', finding.severity)
          : `${mark('note', 'suppressed')} <span class="because">(${html(finding.suppression.justification)})</span>`;
      return `<li>${state} ${rule} line ${finding.range?.start.line ?? '?'}: ${html(finding.message)}</li>`;
    })
    .join('\n')}\n</ul>`;
}

function refusalList(refusals: readonly Refusal[]): string {
  return `<ul>\n${refusals.map(refusalLine).join('\n')}\n</ul>`;
}

function refusalLine(refusal: Refusal): string {
  return `<li><strong>${html(refusal.condition)}</strong>: ${html(refusal.detail)}</li>`;
}

function checks(section: Section): string {
  return `<ul class="checks">\n${section.lines.map((line) => `<li>${lineHtml(line)}</li>`).join('\n')}\n</ul>`;
}

function lineHtml(line: ChecklistLine): string {
  return `${mark(line.mark, line.mark)} ${html(line.text)}${becauseHtml(line)}`;
}

/** Why a line is marked as it is, after it. */
function becauseHtml(line: ChecklistLine): string {
  return line.because === undefined ? '' : ` <span class="because">— ${html(line.because)}</span>`;
}

/** A status as a word in a coloured badge: the word carries it, the colour only repeats it. */
export function mark(kind: Mark | 'pass' | 'skip' | 'not-run', word: string): string {
  return `<span class="mark mark-${kind}">${html(word)}</span>`;
}

/** A table in its own scroll box, named by label (text, escaped here). */
export function table(label: string, headings: readonly string[], rows: readonly (readonly string[])[]): string {
  return scrollBox(
    label,
    [
      '<table>',
      `<thead><tr>${headings.map((heading) => `<th scope="col">${html(heading)}</th>`).join('')}</tr></thead>`,
      `<tbody>\n${rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('\n')}\n</tbody>`,
      '</table>',
    ].join('\n'),
  );
}

/** Multi-line text for a <pre>: each line escaped on its own, the line breaks kept. */
export function htmlLines(text: string): string {
  return text.split('\n').map(html).join('\n');
}
