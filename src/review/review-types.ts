import type { Finding } from '../findings/finding.js';
import type { RetryClass } from '../reference/classify-retry.js';
import type { SpecVersion } from '../spec/revisions.js';
import type { Transport } from '../protocol/transports.js';

/** The review of one manifest: the reviewer checklist of the lesson, per operation, and a verdict derived from it. */
export interface Review {
  readonly version: 2;
  readonly file: string;
  readonly server: string;
  readonly specVersion: SpecVersion;
  readonly replicas: number;
  readonly operations: readonly OperationReview[];
  /** Findings about the server or the whole manifest (not one operation). */
  readonly otherFindings: readonly Finding[];
  /** Every fixture of the manifest, run on the reference implementation. */
  readonly fixtures: { readonly total: number; readonly passed: number; readonly failed: number };
  /** Refusals that belong to no operation: errors about the server or the manifest as a whole. */
  readonly refusals: readonly Refusal[];
  /** True only when no operation and nothing else refuses it. */
  readonly productionReady: boolean;
}

/**
 * How a checklist line stands: `ok`, a `note` (an info finding), a `warn`ing (a warning finding) or a `fail`
 * (an error finding, a race row not as required, a failing fixture). Only `fail` refuses the verdict.
 */
export type Mark = 'ok' | 'note' | 'warn' | 'fail';

/** One statement of the checklist, written from the policy, marked by the evidence about it. */
export interface ChecklistLine {
  readonly mark: Mark;
  readonly text: string;
  /** The rules whose findings mark this line. */
  readonly rules: readonly string[];
  /** Why the mark is not `ok` (the finding's message), or which suppression keeps it `ok`. */
  readonly because?: string;
}

export interface Section {
  readonly lines: readonly ChecklistLine[];
}

export interface OperationReview {
  readonly name: string;
  readonly method: string;
  readonly description?: string;
  readonly sideEffect: string;
  readonly transports: readonly Transport[];
  readonly cancellationWire: readonly WireRow[];
  /** One race table per transport the operation is offered on. */
  readonly raceTables: readonly RaceTable[];
  readonly deadlines: Section;
  readonly progress: Section;
  readonly retry: RetrySection;
  readonly idempotencyBoundary: IdempotencySection;
  readonly flowControl: Section;
  readonly reconnect: Section;
  readonly tasks: Section | null;
  readonly findings: readonly Finding[];
  readonly fixtures: readonly FixtureOutcome[];
  /** Lint errors no fixture can show, each with the reason its rule gives: not passed, not failed, only linted. */
  readonly lintOnly: readonly { readonly rule: string; readonly reason: string }[];
  readonly verdict: Verdict;
}

export interface WireRow extends ChecklistLine {
  readonly transport: Transport;
  readonly clientSignal: string;
  readonly server: string;
}

export interface RaceTable {
  /** The transport the rows were run on. */
  readonly transport: Transport;
  readonly rows: readonly RaceRow[];
}

export interface RaceRow {
  readonly order:
    | 'cancel then complete'
    | 'complete then cancel'
    | 'timeout then late response'
    | 'disconnect during progress'
    | 'disconnect before the response'
    | 'tasks/cancel then completion'
    | 'disconnect then poll'
    | 'TTL expiry then tasks/get'
    | 'client close then server end'
    | 'server end then client close'
    | 'drop then re-issue';
  readonly terminalState: string;
  readonly finalResponse: string;
  readonly clientBehaviour: string;
  /** Whether this row is what the spec and the lesson require. */
  readonly asRequired: boolean;
  readonly mermaid: string;
}

export interface RetrySection extends Section {
  readonly classification: RetryClass;
  readonly reason: string;
}

export interface IdempotencySection extends Section {
  readonly inside: readonly string[];
  readonly outside: readonly string[];
}

/**
 * The operations of a review in order, each made as it is read: a review of 10 000 operations never holds them
 * all (a \`Review\`'s array is one too).
 */
export interface OperationReviews extends Iterable<OperationReview> {
  readonly length: number;
}

/** What the head of a review shows of each operation: its row in the verdict table and its refusals. */
export interface OperationSummary {
  readonly name: string;
  readonly method: string;
  readonly retry: { readonly classification: RetryClass };
  readonly verdict: Verdict;
}

/**
 * The summaries of a review's operations in order, as the head reads them (more than once): an array, or a list
 * read back from a file for 10 000 operations.
 */
export interface OperationSummaries extends Iterable<OperationSummary> {
  readonly length: number;
}

/** Where a review view puts each operation's summary as it makes them: an array, or a list kept in a file. */
export interface SummaryStore extends OperationSummaries {
  push(summary: OperationSummary): unknown;
}

/** A review as its renderers read it: the operations made one at a time, their summaries kept for the head. */
export interface ReviewView extends Omit<Review, 'operations'> {
  readonly operations: OperationReviews;
  readonly summaries: OperationSummaries;
}

export interface FixtureOutcome {
  readonly id: string;
  readonly transport: Transport;
  readonly passed: boolean;
  /** What a failing fixture observed, one sentence per failed expectation. */
  readonly failures: readonly string[];
}

export interface Refusal {
  readonly condition: string;
  readonly detail: string;
}

export interface Verdict {
  readonly productionReady: boolean;
  readonly refusals: readonly Refusal[];
}
