import type { Expectation, Fixture } from '../fixtures/fixture-types.js';
import type { LedgerStoreUsed } from './policy-ledger.js';
import type { TranscriptEntry } from './transcript.js';

export interface ExpectationResult {
  readonly expectation: Expectation;
  readonly passed: boolean;
  /** What was observed, in one sentence. */
  readonly detail: string;
}

export interface FixtureRun {
  readonly fixture: Fixture;
  readonly transcript: readonly TranscriptEntry[];
  readonly results: readonly ExpectationResult[];
  readonly passed: boolean;
  /** The ledger store the run used, when it charged anything: what the manifest declares and what it ran on. */
  readonly ledger?: LedgerStoreUsed;
}
