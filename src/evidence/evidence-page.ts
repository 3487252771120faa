import type { Finding } from '../findings/finding.js';
import { html } from '../html/escape.js';
import { SCROLL_BOX_END, scrollBoxStart } from '../html/scroll-box.js';
import { relativeUri } from '../text/relative-uri.js';
import { DECLARED_BASIS, findingsHtml, mark, renderReviewHtmlChunks, table, type PageSection } from '../review/render-review-html.js';
import type { FixtureOutcome, Review, ReviewView } from '../review/review-types.js';
import { transcriptPath } from './bundle.js';
import type { BundleFiles, EvidenceIndex } from './evidence-index.js';
import { countsInWords, type LiveEvidence } from './live-evidence.js';
import { type CheckStatus, STATUS_WORDS } from '../live/outcome.js';
import type { WireClaim } from '../live/wire-claims.js';
import { plural } from '../text/plural.js';

/** The evidence bundle's index.html: the review page with the verdict of the index, the live run, every transcript and every file. */
export function renderEvidencePage(
  index: EvidenceIndex & { readonly files: BundleFiles },
  review: Review | ReviewView,
  transcriptOf: TranscriptOf,
  live: LiveEvidence | undefined,
  ruleLink: (ruleId: string) => string | undefined,
): string {
  let text = '';
  for (const chunk of renderEvidencePageChunks(index, review, transcriptOf, live, ruleLink)) text += chunk;
  return text;
}

/** A fixture's transcript as the bundle has it (the fixture of the operation named), or undefined when it has none. */
export type TranscriptOf = (fixture: FixtureOutcome, operation: string) => string | undefined;

/** The same page in pieces, each operation's section made as it is written. */
export function renderEvidencePageChunks(
  index: EvidenceIndex & { readonly files: BundleFiles },
  review: Review | ReviewView,
  transcriptOf: TranscriptOf,
  live: LiveEvidence | undefined,
  ruleLink: (ruleId: string) => string | undefined,
): Generator<string> {
  const basis = index.basis;
  const basisLines =
    basis.on === 'manifest'
      ? [DECLARED_BASIS]
      : [
          `Basis: <strong>${basisWords(basis)}</strong> — ` +
            `${html(basis.target)} over ${html(basis.transport)}, MCP ${html(basis.revision)}, ${html(basis.date)}: checks ${countsInWords(basis.checks)}; ` +
            `${plural(basis.drift, 'drift finding')}; live fixtures ${countsInWords(basis.liveFixtures)}; ` +
            `${plural(basis.seen.length, 'claim')} seen, ${basis.asDeclared.length} as declared. ` +
            '<a href="#live">The live run</a>.',
        ];
  const fixtures = index.fixtures;
  basisLines.push(`Fixtures on the reference implementation: ${fixtures.passed} of ${fixtures.total} passed, ${fixtures.failed} failed.`);
  return renderReviewHtmlChunks(review, {
    title: `Reliability evidence: ${review.server}`,
    verdict: { text: index.verdict, productionReady: index.productionReady },
    basis: basisLines,
    leading: live === undefined ? [] : [liveSection(live, ruleLink)],
    trailing: [artifactsSection(index)],
    ruleLink,
    transcript: transcriptOf,
    transcriptFile: (fixture, operation) => relativeUri(transcriptPath({ id: fixture.id, operation })),
    footer:
      '<p>Written by <code>mcprely evidence</code>. The same manifest, mcprely version and live results give the same page, byte for byte. ' +
      'It fetches nothing: open it from the bundle folder, no network needed.</p>',
  });
}

function liveSection(live: LiveEvidence, ruleLink: (ruleId: string) => string | undefined): PageSection {
  const status = (value: CheckStatus) => mark(value === 'pass' ? 'pass' : value === 'fail' ? 'fail' : 'skip', STATUS_WORDS[value]);
  const claimMark = (claim: WireClaim) =>
    mark(claim.status === 'seen' ? 'pass' : claim.status === 'contradicted' ? 'fail' : 'skip', claim.status.replace('-', ' '));
  const drift: readonly Finding[] = live.drift;
  return {
    id: 'live',
    label: 'Live run',
    html: [
      '<h2>Live run</h2>',
      `<p>${html(live.target)} over ${html(live.transport)}, MCP ${html(live.revision)}, ${html(live.date)}. ` +
        `Live fixtures: ${countsInWords(live.fixtures)}.</p>`,
      '<h3>Claims of the manifest on the wire</h3>',
      live.claims.length === 0
        ? '<p>The manifest makes no claim the probe can see.</p>'
        : table(
            'Claims of the manifest on the wire',
            ['claim', 'result', 'what was seen, or why not (a claim not seen stands as declared)'],
            live.claims.map((claim) => [
              `<code>${html(`${claim.operation === undefined ? '' : `${claim.operation}: `}${claim.field}: ${claim.value}`)}</code>`,
              claimMark(claim),
              html(claim.why),
            ]),
          ),
      '<h3>Probe checks</h3>',
      table(
        'Probe checks',
        ['check', 'result', 'what was seen'],
        live.checks.map((check) => [`<code>${html(check.id)}</code>`, status(check.status), html(check.summary)]),
      ),
      '<h3>Drift: where the server contradicts the manifest</h3>',
      drift.length === 0 ? '<p>None.</p>' : findingsHtml(drift, { ruleLink }),
      `<p>Files: ${[...live.files.keys()].sort().map(fileLink).join(', ')}</p>`,
    ].join('\n'),
  };
}

function artifactsSection(index: EvidenceIndex & { readonly files: BundleFiles }): PageSection {
  return { id: 'artifacts', label: 'Artifacts and files', html: artifactsHtml(index) };
}

/** The artifacts and every file of the bundle, a file at a time (a bundle of 10 000 operations has 80 000). */
function* artifactsHtml(index: EvidenceIndex & { readonly files: BundleFiles }): Generator<string> {
  yield '<h2>Artifacts and files</h2>\n';
  // table() with each artifact's files written one at a time (an artifact of 10 000 operations has 20 000).
  const headings = ['artifact', 'status', 'note', 'files'];
  yield `${scrollBoxStart('Artifacts and their files')}\n`;
  yield `<table>\n<thead><tr>${headings.map((heading) => `<th scope="col">${html(heading)}</th>`).join('')}</tr></thead>\n<tbody>\n`;
  for (const [row, artifact] of index.artifacts.entries()) {
    yield `${row === 0 ? '' : '\n'}<tr><td>${html(artifact.name)}</td><td>${mark(...ARTIFACT_MARK[artifact.status])}</td><td>${html(artifact.note)}</td><td>`;
    for (const [position, path] of artifact.paths.entries()) yield `${position === 0 ? '' : '<br>'}${fileLink(path)}`;
    yield '</td></tr>';
  }
  yield `\n</tbody>\n</table>\n${SCROLL_BOX_END}`;
  yield `\n<details><summary>Every file of the bundle (${index.files.length})</summary>\n<ul>\n`;
  let first = true;
  for (const path of index.files) {
    yield `${first ? '' : '\n'}<li>${fileLink(path)}</li>`;
    first = false;
  }
  yield '\n</ul>\n</details>';
}

/** How each artifact status shows: its badge and word. */
const ARTIFACT_MARK: Record<EvidenceIndex['artifacts'][number]['status'], [Parameters<typeof mark>[0], string]> = {
  pass: ['pass', 'pass'],
  fail: ['fail', 'fail'],
  present: ['ok', 'present'],
  'not applicable': ['note', 'n/a'],
};

/** A link to a file of the bundle, relative to the page. */
function fileLink(path: string): string {
  return `<a href="${html(relativeUri(path))}">${html(path)}</a>`;
}

/** What a live basis amounts to, in words: verified only when every claim the probe can see was seen. */
function basisWords(basis: { readonly verified: boolean; readonly asDeclared: readonly string[] }): string {
  if (!basis.verified) return 'checked on the wire, not verified';
  return basis.asDeclared.length === 0 ? 'verified on the wire' : 'partly seen on the wire';
}
