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
  runs: readonly RunOutcome[],
  live?: LiveEvidence,
): EvidenceIndex {
  const of = (...kinds: FixtureKind[]) => runs.filter((run) => kinds.includes(run.fixture.kind));
  const revision = manifest.manifest.specVersion;
  const mutations = manifest.operations.filter((operation) => isMutation(operation.spec));
  const keyed = mutations.filter((operation) => isKeyedMutation(operation.spec));
  const http = manifest.manifest.server.transports.includes('streamable-http');
  const failed = runs.filter((run) => !run.passed).length;
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
    fixtures: { total: runs.length, passed: runs.length - failed, failed },
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
        of('stdio-cancel-before-completion', 'stdio-complete-before-late-cancel'),
        'cancel before completion and completion before a late cancellation',
      ),
      fromRuns(
        'cancellation race transcript, Streamable HTTP',
        of('http-cancel-before-completion'),
        `cancellation on ${revision} Streamable HTTP`,
      ),
      withRuns(
        document(
          'retry table for every mutation',
          mutations.length > 0,
          ['retry-table.md'],
          `${plural(mutations.length, 'mutation')}; every operation is classified; a lost response retried as each policy says, and the retry herd`,
          'no mutation',
        ),
        of('lost-response-automatic-retry', 'retry-herd-backoff'),
      ),
      document(
        'idempotency-key record',
        keyed.length > 0,
        ['idempotency-key-records.json'],
        'each keyed mutation committed once on the reference ledger, the record read back by key',
        'no keyed mutation',
      ),
      fromRuns(
        'key mismatch fixture',
        of('key-reuse-changed-arguments'),
        'the same key with changed arguments is rejected and executes nothing',
      ),
      fromRuns('concurrent same-key transcript', of('two-connections-race-one-key'), 'two connections on separate threads, one key'),
      fromRuns('reopen check', of('close-reopen-replay'), 'the record survives close and reopen'),
      fromRuns('mutation-alias check', of('caller-mutates-result-clean-replay'), 'editing a returned result never changes a replay'),
      fromRuns('bounded-buffer overload result', of('slow-consumer-overflows-buffer'), 'a consumer that reads nothing'),
      withRuns(
        document(
          'SSE headers and idle policy',
          http,
          ['sse-headers-and-idle-policy.md'],
          "headers, keep-alive against the proxy idle timeout, each operation's clocks; " +
            'progress through a buffering proxy and a quiet stream behind an idle timeout',
          'no Streamable HTTP transport',
        ),
        of('proxy-buffering-sse', 'quiet-stream-behind-proxy'),
      ),
      fromRuns(
        'reconnect plan naming its refetch methods',
        of('stream-drop-reconnect-refetch', 'reconnect-herd-backoff'),
        'a dropped stream, a new request, the reads that restore state, and a herd reconnecting with the declared backoff',
        ['reconnect-plans.json'],
      ),
      fromRuns('durable task cancellation trace', of('task-cancel-ack-then-worker-checkpoint'), `tasks/cancel on ${revision}`),
      fromRuns('deadline fixture', of('progress-resets-idle-maximum-fires'), 'progress resets the idle clock, the maximum still fires'),
    ],
  };
}

/** An artifact that fixtures show: it passes when they all pass. */
function fromRuns(name: string, selected: readonly RunOutcome[], note: string, extra: string[] = []): Artifact {
  return {
    name,
    status: selected.length === 0 ? 'not applicable' : selected.every((run) => run.passed) ? 'pass' : 'fail',
    paths: [...extra, ...selected.map((run) => transcriptPath(run.fixture))],
    note: selected.length === 0 ? 'no operation of this manifest needs it' : note,
  };
}

/** A document artifact that fixtures also prove: it fails when one of them fails. */
function withRuns(artifact: Artifact, selected: readonly RunOutcome[]): Artifact {
  if (selected.length === 0) return artifact;
  const passed = selected.every((run) => run.passed);
  const status = !passed ? 'fail' : artifact.status === 'not applicable' ? 'pass' : artifact.status;
  return { ...artifact, status, paths: [...artifact.paths, ...selected.map((run) => transcriptPath(run.fixture))] };
}

export function renderIndex(index: EvidenceIndex): string {
  const mark = { pass: '✅ pass', fail: '❌ fail', present: '📄 present', 'not applicable': '— not applicable' } as const;
  const verdict = `${index.productionReady ? '✅' : '❌'} ${index.verdict}`;
  const lines = [
    `# Evidence: ${markdownText(index.server)}`,
    '',
    `Manifest \`${index.manifest}\` · MCP ${index.specVersion} · verdict: ${verdict} · fixtures: ${index.fixtures.passed} of ${index.fixtures.total} passed`,
    '',
    '| artifact | status | files | note |',
    '|---|---|---|---|',
    ...index.artifacts.map((artifact) => {
      const files = artifact.paths.map((path) => `[${path}](${path})`).join('<br>') || '—';
      return `| ${artifact.name} | ${mark[artifact.status]} | ${files} | ${artifact.note} |`;
    }),
  ];
  return `${lines.map(displayText).join('\n')}\n`;
}
