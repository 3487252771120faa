import type { FixtureKind } from '../fixtures/fixture-types.js';
import type { LoadedManifest } from '../manifest/load.js';
import { isKeyedMutation, isMutation } from '../policy/predicates.js';
import type { ReviewView } from '../review/review-types.js';
import type { RunOutcome } from '../simulator/run-outcome.js';
import { transcriptPath } from './bundle.js';
import { basisOf, countOutcomes, countsInWords, type LiveEvidence, type VerdictBasis, verdictSentence } from './live-evidence.js';
import { displayText, markdownText } from '../text/display-text.js';
import { plural } from '../text/plural.js';

export interface EvidenceIndex {
  readonly mcprelyEvidence: 1;
  readonly manifest: string;
  readonly server: string;
  readonly specVersion: string;
  readonly productionReady: boolean;
  /** The verdict in words, naming its basis ("as declared", or "verified on the wire" with the run). */
  readonly verdict: string;
  readonly basis: VerdictBasis;
  readonly fixtures: { readonly total: number; readonly passed: number; readonly failed: number };
  readonly artifacts: readonly Artifact[];
}

/** The files of a bundle in order, as its index lists them: an array, or a list made each time it is read. */
export interface BundleFiles extends Iterable<string> {
  readonly length: number;
}

export interface Artifact {
  readonly name: string;
  readonly status: 'pass' | 'fail' | 'present' | 'not applicable';
  readonly paths: readonly string[];
  readonly note: string;
}

/** The artifacts the lesson's capstone asks for, each with its status and the files that show it. */
export function evidenceIndex(
  manifest: LoadedManifest,
  review: ReviewView,
  /** Every fixture's outcome, read once. */
  runs: Iterable<RunOutcome>,
  live?: LiveEvidence,
): EvidenceIndex {
  const { total, failed, selected } = selectRuns(runs);
  const of = (group: keyof typeof RUN_GROUPS) => selected[group];
  const revision = manifest.manifest.specVersion;
  const mutations = manifest.operations.filter((operation) => isMutation(operation.spec));
  const keyed = mutations.filter((operation) => isKeyedMutation(operation.spec));
  const http = manifest.manifest.server.transports.includes('streamable-http');
  const basis = basisOf(live);
  const document = (name: string, applies: boolean, paths: string[], note: string, otherwise: string): Artifact =>
    applies ? { name, status: 'present', paths, note } : { name, status: 'not applicable', paths: [], note: otherwise };
  return {
    mcprelyEvidence: 1,
    manifest: manifest.file,
    server: manifest.manifest.server.name,
    specVersion: revision,
    ...verdictSentence(review.productionReady, basis),
    basis,
    fixtures: { total, passed: total - failed, failed },
    artifacts: [
      {
        name: 'review',
        status: 'present',
        paths: ['review.md', 'review.json'],
        note: `verdict: ${review.productionReady ? 'production-ready' : 'not production-ready'} (as declared)`,
      },
      ...(live === undefined
        ? []
        : [
            {
              name: 'live run: probe, drift and live fixtures',
              status: basis.on === 'wire' && basis.verified ? ('pass' as const) : ('fail' as const),
              paths: [...live.files.keys()].sort(),
              note:
                `${live.target} over ${live.transport}, MCP ${live.revision}, ${live.date}: ` +
                `checks ${countsInWords(countOutcomes(live.checks))}; ` +
                `${plural(live.drift.length, 'drift finding')}; ` +
                `live fixtures ${countsInWords(live.fixtures)}`,
            },
          ]),
      fromRuns(
        'cancellation race transcript, stdio',
        of('stdioRace'),
        'cancel before completion and completion before a late cancellation',
      ),
      fromRuns('cancellation race transcript, Streamable HTTP', of('httpRace'), `cancellation on ${revision} Streamable HTTP`),
      withRuns(
        document(
          'retry table for every mutation',
          mutations.length > 0,
          ['retry-table.md'],
          `${plural(mutations.length, 'mutation')}; every operation is classified; a lost response retried as each policy says, and the retry herd`,
          'no mutation',
        ),
        of('retry'),
      ),
      document(
        'idempotency-key record',
        keyed.length > 0,
        ['idempotency-key-records.json'],
        'each keyed mutation committed once on the reference ledger, the record read back by key',
        'no keyed mutation',
      ),
      fromRuns('key mismatch fixture', of('keyMismatch'), 'the same key with changed arguments is rejected and executes nothing'),
      fromRuns('concurrent same-key transcript', of('sameKey'), 'two connections on separate threads, one key'),
      fromRuns('reopen check', of('reopen'), 'the record survives close and reopen'),
      fromRuns('mutation-alias check', of('alias'), 'editing a returned result never changes a replay'),
      fromRuns('bounded-buffer overload result', of('buffer'), 'a consumer that reads nothing'),
      withRuns(
        document(
          'SSE headers and idle policy',
          http,
          ['sse-headers-and-idle-policy.md'],
          "headers, keep-alive against the proxy idle timeout, each operation's clocks; " +
            'progress through a buffering proxy and a quiet stream behind an idle timeout',
          'no Streamable HTTP transport',
        ),
        of('sse'),
      ),
      fromRuns(
        'reconnect plan naming its refetch methods',
        of('reconnect'),
        'a dropped stream, a new request, the reads that restore state, and a herd reconnecting with the declared backoff',
        ['reconnect-plans.json'],
      ),
      fromRuns('durable task cancellation trace', of('task'), `tasks/cancel on ${revision}`),
      fromRuns('deadline fixture', of('deadline'), 'progress resets the idle clock, the maximum still fires'),
    ],
  };
}

/** The fixtures each artifact rests on, by kind. */
const RUN_GROUPS = {
  stdioRace: ['stdio-cancel-before-completion', 'stdio-complete-before-late-cancel'],
  httpRace: ['http-cancel-before-completion'],
  retry: ['lost-response-automatic-retry', 'retry-herd-backoff'],
  keyMismatch: ['key-reuse-changed-arguments'],
  sameKey: ['two-connections-race-one-key'],
  reopen: ['close-reopen-replay'],
  alias: ['caller-mutates-result-clean-replay'],
  buffer: ['slow-consumer-overflows-buffer'],
  sse: ['proxy-buffering-sse', 'quiet-stream-behind-proxy'],
  reconnect: ['stream-drop-reconnect-refetch', 'stream-drop-reissue', 'reconnect-herd-backoff'],
  task: ['task-cancel-ack-then-worker-checkpoint'],
  deadline: ['progress-resets-idle-maximum-fires'],
} as const satisfies Record<string, readonly FixtureKind[]>;

/** The runs of one group: their transcripts in run order, and whether every one passed. */
interface SelectedRuns {
  readonly paths: string[];
  passed: boolean;
}

/** One pass over the runs: their counts, and each group's transcripts (a run of 10 000 operations is never held). */
function selectRuns(runs: Iterable<RunOutcome>): {
  total: number;
  failed: number;
  selected: Record<keyof typeof RUN_GROUPS, SelectedRuns>;
} {
  const groups = Object.keys(RUN_GROUPS) as (keyof typeof RUN_GROUPS)[];
  const selected = {} as Record<keyof typeof RUN_GROUPS, SelectedRuns>;
  const groupsOf = new Map<FixtureKind, SelectedRuns[]>();
  for (const group of groups) {
    selected[group] = { paths: [], passed: true };
    for (const kind of RUN_GROUPS[group]) groupsOf.set(kind, [...(groupsOf.get(kind) ?? []), selected[group]]);
  }
  let total = 0;
  let failed = 0;
  for (const run of runs) {
    total++;
    if (!run.passed) failed++;
    for (const group of groupsOf.get(run.fixture.kind) ?? []) {
      group.paths.push(transcriptPath(run.fixture));
      if (!run.passed) group.passed = false;
    }
  }
  return { total, failed, selected };
}

/** An artifact that fixtures show: it passes when they all pass. */
function fromRuns(name: string, selected: SelectedRuns, note: string, extra: string[] = []): Artifact {
  const none = selected.paths.length === 0;
  return {
    name,
    status: none ? 'not applicable' : selected.passed ? 'pass' : 'fail',
    paths: [...extra, ...selected.paths],
    note: none ? 'no operation of this manifest needs it' : note,
  };
}

/** A document artifact that fixtures also prove: it fails when one of them fails. */
function withRuns(artifact: Artifact, selected: SelectedRuns): Artifact {
  if (selected.paths.length === 0) return artifact;
  const status = !selected.passed ? 'fail' : artifact.status === 'not applicable' ? 'pass' : artifact.status;
  return { ...artifact, status, paths: [...artifact.paths, ...selected.paths] };
}

/** index.md in pieces: an artifact's files (20 000 transcripts, for 10 000 operations) are written one at a time. */
export function* renderIndexChunks(index: EvidenceIndex): Generator<string> {
  const mark = { pass: '✅ pass', fail: '❌ fail', present: '📄 present', 'not applicable': '— not applicable' } as const;
  const verdict = `${index.productionReady ? '✅' : '❌'} ${index.verdict}`;
  const head = [
    `# Evidence: ${markdownText(index.server)}`,
    '',
    `Manifest \`${index.manifest}\` · MCP ${index.specVersion} · verdict: ${verdict} · fixtures: ${index.fixtures.passed} of ${index.fixtures.total} passed`,
    '',
    '| artifact | status | files | note |',
    '|---|---|---|---|',
  ];
  // Each line is shown as displayText shows it; it escapes character by character, so a line may go in pieces.
  yield head.map(displayText).join('\n');
  for (const artifact of index.artifacts) {
    yield `\n${displayText(`| ${artifact.name} | ${mark[artifact.status]} | `)}`;
    if (artifact.paths.length === 0) yield '—';
    for (const [position, path] of artifact.paths.entries()) yield displayText(`${position === 0 ? '' : '<br>'}[${path}](${path})`);
    yield displayText(` | ${artifact.note} |`);
  }
  yield '\n';
}
