import { lintOnlyReasonOf, type RuleVerifications } from '../findings/rule-verification.js';
import type { Finding } from '../findings/finding.js';
import { fixtureParameters } from '../fixtures/fixture-parameters.js';
import type { LoadedManifest } from '../manifest/load.js';
import { assumedSideEffect, transportsOf } from '../policy/predicates.js';
import type { FixtureRun } from '../simulator/fixture-run.js';
import { outcomeOf, type RunOutcome } from '../simulator/run-outcome.js';
import { factsOf } from '../spec/revision-facts.js';
import { Checklist } from './checklist.js';
import { raceTables } from './race-table.js';
import type { RaceRunner } from './race-script.js';
import type { ReviewContext } from './review-context.js';
import type {
  FixtureOutcome,
  OperationReview,
  OperationReviews,
  OperationSummary,
  Refusal,
  Review,
  ReviewView,
  SummaryStore,
} from './review-types.js';
import { cancellationWire } from './sections/cancellation-wire.js';
import { deadlines } from './sections/deadlines.js';
import { flowControl } from './sections/flow-control.js';
import { idempotencyBoundary } from './sections/idempotency.js';
import { progress } from './sections/progress.js';
import { reconnect } from './sections/reconnect.js';
import { retry } from './sections/retry.js';
import { tasks } from './sections/tasks.js';
import { verdict } from './verdict.js';
import { allOutcomes, evidenceInMemory, outcomesByName, type ReviewEvidence } from './operation-evidence.js';

/**
 * The review of a valid manifest from its evidence: its lint findings, and the runs of its fixtures on the
 * reference implementation (the caller runs them, and gives the runner of the race rows' scripts; this stays
 * pure). Every section is written from the policy and marked by the findings about it; the verdict is derived
 * from all of it.
 */
export function buildReview(
  manifest: LoadedManifest,
  findings: readonly Finding[],
  runs: readonly (FixtureRun | RunOutcome)[],
  runRace: RaceRunner,
  /** Why no fixture can show what each lint-only rule reports (rule id → reason): shown instead of a pass. */
  lintOnlyRules: RuleVerifications = new Map(),
): Review {
  const outcomes = runs.map((run) => ('results' in run ? outcomeOf(run) : run));
  const evidence = evidenceInMemory(manifest, findings, outcomes);
  const { summaries: _, operations, ...head } = reviewView(manifest, evidence, runRace, lintOnlyRules, true);
  const { version, file, server, specVersion, replicas, ...rest } = head;
  return { version, file, server, specVersion, replicas, operations: [...operations], ...rest };
}

/**
 * The same review with its operations made one at a time as they are read (each read makes them again, from
 * each operation's record), and a summary of each held for the head: what `evidence` writes a manifest of 10 000
 * operations from without holding their reviews, findings or outcomes. Its JSON is the review's, byte for byte.
 */
export function reviewView(
  manifest: LoadedManifest,
  evidence: ReviewEvidence,
  runRace: RaceRunner,
  lintOnlyRules: RuleVerifications = new Map(),
  /** Make each operation's review once and hold them all (what `buildReview` returns), instead of on every read. */
  hold = false,
): ReviewView {
  const summaries: SummaryStore = evidence.summaryStore?.() ?? [];
  const { specVersion, server } = manifest.manifest;
  const replicas = server.replicas ?? 1;
  const facts = factsOf(specVersion);
  const { records, otherFindings } = evidence;
  const outcomesOf = outcomesByName(manifest, records);
  const raceTablesOf = raceTables(runRace);
  const reviewOf = (resolved: LoadedManifest['operations'][number], position: number): OperationReview => {
    const spec = resolved.spec;
    const own = records.at(position).findings;
    const context: ReviewContext = {
      operation: spec,
      server,
      specVersion,
      facts,
      transports: transportsOf(spec, server),
      checklist: new Checklist(own),
    };
    const parameters = fixtureParameters(manifest.manifest, resolved);
    const wire = cancellationWire(context);
    const sections = {
      deadlines: deadlines(context),
      progress: progress(context),
      retry: retry(context),
      idempotencyBoundary: idempotencyBoundary(context),
      flowControl: flowControl(context),
      reconnect: reconnect(context),
      tasks: tasks(context),
    };
    const tables = raceTablesOf(context, parameters);
    const fixtures = outcomesOf(spec.name).map(fixtureOutcome);
    const lines = [
      ...wire.map((row) => ({ section: 'cancellation wire', line: row })),
      ...Object.entries(SECTION_TITLES).flatMap(([key, title]) =>
        (sections[key as keyof typeof sections]?.lines ?? []).map((line) => ({ section: title, line })),
      ),
    ];
    return {
      name: spec.name,
      method: spec.method,
      ...(spec.description === undefined ? {} : { description: spec.description }),
      sideEffect: spec.sideEffect ?? `not declared (reviewed as a ${assumedSideEffect(spec)})`,
      transports: context.transports,
      cancellationWire: wire,
      raceTables: tables,
      ...sections,
      findings: own,
      fixtures,
      lintOnly: lintOnlyOf(own, lintOnlyRules),
      verdict: verdict({ operation: spec, replicas, lines, raceTables: tables, fixtures, findings: own }),
    };
  };
  const operations: OperationReviews = hold
    ? manifest.operations.map(reviewOf)
    : {
        length: manifest.operations.length,
        *[Symbol.iterator]() {
          for (const [position, resolved] of manifest.operations.entries()) yield reviewOf(resolved, position);
        },
      };
  let ready = true;
  for (const operation of operations) {
    const summary = summaryOf(operation);
    summaries.push(summary);
    ready &&= summary.verdict.productionReady;
  }
  const errors = [
    ...new Set(
      otherFindings.filter((finding) => finding.severity === 'error' && finding.suppression === undefined).map((finding) => finding.ruleId),
    ),
  ];
  const refusals: Refusal[] = errors.length === 0 ? [] : [{ condition: 'server or manifest lint errors', detail: errors.join(', ') }];
  let total = 0;
  let failed = 0;
  for (const outcome of allOutcomes(records)) {
    total++;
    if (!outcome.passed) failed++;
  }
  return {
    version: 2,
    file: manifest.file,
    server: server.name,
    specVersion,
    replicas,
    operations,
    otherFindings,
    fixtures: { total, passed: total - failed, failed },
    refusals,
    productionReady: refusals.length === 0 && ready,
    summaries,
  };
}

/** A review as its renderers read it: a built review's summaries taken from its operations. */
export function viewOf(review: Review | ReviewView): ReviewView {
  if ('summaries' in review) return review;
  return { ...review, summaries: review.operations.map(summaryOf) };
}

function summaryOf({ name, method, retry, verdict }: OperationReview): OperationSummary {
  return { name, method, retry: { classification: retry.classification }, verdict };
}

/** The checklist sections in the order the review shows them. */
export const SECTION_TITLES = {
  deadlines: 'deadline policy',
  progress: 'progress',
  retry: 'retry classification',
  idempotencyBoundary: 'idempotency boundary',
  flowControl: 'flow control',
  reconnect: 'reconnect plan',
  tasks: 'durable tasks',
} as const;

function fixtureOutcome(outcome: RunOutcome): FixtureOutcome {
  return { id: outcome.fixture.id, transport: outcome.fixture.transport, passed: outcome.passed, failures: outcome.failures };
}

/** The errors of lint-only rules among an operation's findings: no fixture run can pass or fail them, and the review says why. */
function lintOnlyOf(findings: readonly Finding[], verifications: RuleVerifications): { rule: string; reason: string }[] {
  const seen = new Map<string, string>();
  for (const finding of findings) {
    const reason = lintOnlyReasonOf(finding, verifications);
    if (reason !== undefined && finding.suppression === undefined && finding.severity !== 'info') seen.set(finding.ruleId, reason);
  }
  return [...seen].map(([rule, reason]) => ({ rule, reason }));
}
