import type { Finding } from '../findings/finding.js';
import type { OperationSpec } from '../manifest/types.js';
import {
  bufferIsBounded,
  externalEffectIsProtected,
  isKeyedMutation,
  ledgerIsAtomic,
  ledgerIsDurable,
  ledgerIsShared,
  returnsDefensiveCopies,
  retriesOnTimeoutBlindly,
  streamsEvents,
} from '../policy/predicates.js';
import type { ChecklistLine, FixtureOutcome, RaceTable, Refusal, Verdict } from './review-types.js';

/** Everything one operation's review shows: the verdict is derived from it and from nothing else. */
export interface Evidence {
  readonly operation: OperationSpec;
  readonly replicas: number;
  /** Every checklist line of every section, with the name of its section. */
  readonly lines: readonly { readonly section: string; readonly line: ChecklistLine }[];
  readonly raceTables: readonly RaceTable[];
  readonly fixtures: readonly FixtureOutcome[];
  readonly findings: readonly Finding[];
}

/**
 * The verdict refuses "production-ready" for each condition of the lesson's reviewer checklist, for every
 * checklist line marked ❌, every race row that is not as required, every failing fixture and every lint
 * error, naming each one. So no review can say ready beside its own failing row.
 */
export function verdict(evidence: Evidence): Verdict {
  const refusals: Refusal[] = [...lessonRefusals(evidence.operation, evidence.replicas)];
  const failedRules = new Set<string>();
  for (const { section, line } of evidence.lines) {
    if (line.mark !== 'fail') continue;
    refusals.push({ condition: `${section}: ${line.text}`, detail: line.because ?? 'marked ❌' });
    for (const rule of line.rules) failedRules.add(rule);
  }
  for (const table of evidence.raceTables) {
    for (const row of table.rows)
      if (!row.asRequired)
        refusals.push({
          condition: `race table (${table.transport}): ${row.order}`,
          detail: `terminal state ${row.terminalState}; final response ${row.finalResponse}; client: ${row.clientBehaviour}`,
        });
  }
  for (const fixture of evidence.fixtures)
    if (!fixture.passed) refusals.push({ condition: `fixture ${fixture.id} fails`, detail: fixture.failures.join('; ') });
  const errors = [
    ...new Set(
      evidence.findings
        .filter((finding) => finding.severity === 'error' && finding.suppression === undefined)
        .map((finding) => finding.ruleId),
    ),
  ];
  const unshown = errors.filter((rule) => !failedRules.has(rule));
  if (unshown.length > 0) refusals.push({ condition: 'lint errors', detail: unshown.join(', ') });
  return { productionReady: refusals.length === 0, refusals };
}

/** The lesson's own refusals, from what the policy means (src/policy), whatever the configuration turned off. */
function lessonRefusals(operation: OperationSpec, replicas: number): Refusal[] {
  const refusals: Refusal[] = [];
  const keyed = isKeyedMutation(operation);
  if (retriesOnTimeoutBlindly(operation)) {
    refusals.push({
      condition: 'retry is only "retry on timeout"',
      detail: `a mutation is re-sent after a timeout ${keyed ? 'without reconciling first' : 'without an idempotency key'}`,
    });
  }
  if (keyed && (!ledgerIsDurable(operation) || !ledgerIsShared(operation, replicas))) {
    refusals.push({
      condition: 'the ledger is process-local',
      detail: !ledgerIsDurable(operation)
        ? 'idempotency records do not survive a restart'
        : `records are not shared by the ${replicas} replicas`,
    });
  }
  if (keyed && (!externalEffectIsProtected(operation) || !ledgerIsAtomic(operation))) {
    refusals.push({
      condition: 'the external effect sits outside the atomic boundary',
      detail: !ledgerIsAtomic(operation)
        ? 'key claim, effect and result are not one atomic commit'
        : 'an external call with neither an outbox nor an upstream key',
    });
  }
  if (keyed && !returnsDefensiveCopies(operation)) {
    refusals.push({
      condition: 'returned records alias mutable storage',
      detail:
        operation.idempotency?.returns === 'shared-reference'
          ? 'results are the stored objects'
          : 'results are not declared to be defensive copies',
    });
  }
  if (streamsEvents(operation) && !bufferIsBounded(operation)) {
    refusals.push({ condition: 'queue capacity is unspecified', detail: 'progress is queued without a bound of at least 2' });
  }
  return refusals;
}
