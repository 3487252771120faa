import type { Finding } from '../findings/finding.js';
import type { LoadedManifest } from '../manifest/load.js';
import type { RunOutcome } from '../simulator/run-outcome.js';
import type { SummaryStore } from './review-types.js';

/** What one operation of a manifest brought to its review: the lint findings about it and its fixtures' outcomes. */
export interface OperationRecord {
  readonly findings: readonly Finding[];
  readonly outcomes: readonly RunOutcome[];
}

/**
 * Each operation's record by its position in the manifest, read as often as a review needs it. Held in memory
 * (`evidenceInMemory`) or read back from wherever the caller put them (a file, for 10 000 operations): a review
 * never asks for more than one at a time.
 */
export interface OperationRecords {
  readonly length: number;
  at(position: number): OperationRecord;
}

/** The evidence a review is made from: each operation's record, and the findings about no operation. */
export interface ReviewEvidence {
  readonly records: OperationRecords;
  /** Findings about the server or the whole manifest (not one operation). */
  readonly otherFindings: readonly Finding[];
  /** A new store for each review made from it to keep its operations' summaries in (a file, for 10 000 operations); an array by default. */
  readonly summaryStore?: () => SummaryStore;
}

/** The position of the operation a finding is about (its path is under /operations/N), or undefined. */
export function operationPositionOf(finding: Finding): number | undefined {
  const position = /^\/operations\/(\d+)(?:\/|$)/.exec(finding.path)?.[1];
  return position === undefined ? undefined : Number(position);
}

/** Each operation's findings by its position (findings about no operation are left out). */
export function findingsByPosition(findings: readonly Finding[]): Map<number, Finding[]> {
  const findingsAt = new Map<number, Finding[]>();
  for (const finding of findings) {
    const position = operationPositionOf(finding);
    if (position !== undefined) pushTo(findingsAt, position, finding);
  }
  return findingsAt;
}

/** The findings about no operation. */
export function otherFindingsOf(findings: readonly Finding[]): Finding[] {
  return findings.filter((finding) => !finding.path.startsWith('/operations/'));
}

/**
 * Lint findings and outcomes held whole, as records: findings go to the operation at their path's position,
 * outcomes to the first operation of their name (`outcomesOf` gives every operation of that name all of them).
 */
export function evidenceInMemory(manifest: LoadedManifest, findings: readonly Finding[], outcomes: readonly RunOutcome[]): ReviewEvidence {
  const findingsAt = findingsByPosition(findings);
  const firstOf = new Map<string, number>();
  for (const [position, operation] of manifest.operations.entries())
    if (!firstOf.has(operation.spec.name)) firstOf.set(operation.spec.name, position);
  const outcomesAt = new Map<number, RunOutcome[]>();
  for (const outcome of outcomes) {
    const position = firstOf.get(outcome.fixture.operation);
    if (position !== undefined) pushTo(outcomesAt, position, outcome);
  }
  return {
    records: {
      length: manifest.operations.length,
      at: (position) => ({ findings: findingsAt.get(position) ?? [], outcomes: outcomesAt.get(position) ?? [] }),
    },
    otherFindings: otherFindingsOf(findings),
  };
}

/**
 * The outcomes a review shows for an operation: those of every operation of its name (names are meant to be
 * unique; where two share one, both show the fixtures of the name, as their fixtures share ids and files).
 */
export function outcomesByName(manifest: LoadedManifest, records: OperationRecords): (name: string) => RunOutcome[] {
  const positions = new Map<string, number[]>();
  for (const [position, operation] of manifest.operations.entries()) pushTo(positions, operation.spec.name, position);
  return (name) => (positions.get(name) ?? []).flatMap((position) => records.at(position).outcomes);
}

/** Every outcome in the manifest's order, read a record at a time. */
export function* allOutcomes(records: OperationRecords): Generator<RunOutcome> {
  for (let position = 0; position < records.length; position++) yield* records.at(position).outcomes;
}

function pushTo<K, T>(groups: Map<K, T[]>, key: K, item: T): void {
  const group = groups.get(key);
  if (group === undefined) groups.set(key, [item]);
  else group.push(item);
}
