import type { Finding } from '../findings/finding.js';
import type { RetryClass } from '../reference/classify-retry.js';
import type { SpecVersion } from '../spec/revisions.js';
import type { Transport } from '../spec/transports.js';

/** The review of one manifest: the reviewer checklist of reference-semantics.md, per operation. */
export interface Review {
  readonly version: 1;
  readonly file: string;
  readonly server: string;
  readonly specVersion: SpecVersion;
  readonly replicas: number;
  readonly operations: readonly OperationReview[];
  /** Findings about the server or the whole manifest (not one operation). */
  readonly otherFindings: readonly Finding[];
  readonly productionReady: boolean;
}

export interface OperationReview {
  readonly name: string;
  readonly method: string;
  readonly description?: string;
  readonly sideEffect: string;
  readonly transports: readonly Transport[];
  readonly cancellationWire: readonly WireRow[];
  readonly raceTable: RaceTable;
  readonly deadlines: Section;
  readonly retry: { readonly classification: RetryClass; readonly reason: string; readonly automatic: string; readonly backoff: string };
  readonly idempotencyBoundary: { readonly inside: readonly string[]; readonly outside: readonly string[]; readonly notes: readonly string[] };
  readonly flowControl: Section;
  readonly reconnect: Section;
  readonly tasks: Section | null;
  readonly findings: readonly Finding[];
  readonly fixtures: readonly string[];
  readonly verdict: Verdict;
}

export interface WireRow {
  readonly transport: Transport;
  readonly clientSignal: string;
  readonly server: string;
  readonly ok: boolean;
}

export interface RaceTable {
  /** The transport the rows were run on. */
  readonly transport: Transport;
  readonly rows: readonly RaceRow[];
}

export interface RaceRow {
  readonly order: string;
  readonly terminalState: string;
  readonly finalResponse: string;
  readonly clientBehaviour: string;
  /** Whether this row is what the spec and the lesson require. */
  readonly asRequired: boolean;
  readonly mermaid: string;
}

/** A checklist section: each line a statement with whether it holds. */
export interface Section {
  readonly checks: readonly { readonly ok: boolean; readonly text: string }[];
}

export interface Verdict {
  readonly productionReady: boolean;
  readonly refusals: readonly { readonly condition: string; readonly detail: string }[];
}
