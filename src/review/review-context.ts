import type { OperationSpec, ServerSpec } from '../manifest/types.js';
import type { RevisionFacts } from '../spec/revision-facts.js';
import type { SpecVersion } from '../spec/revisions.js';
import type { Transport } from '../protocol/transports.js';
import type { Checklist } from './checklist.js';

/** What every section of one operation's review reads: its merged policy, the server, the revision's facts, its findings. */
export interface ReviewContext {
  readonly operation: OperationSpec;
  readonly server: ServerSpec;
  readonly specVersion: SpecVersion;
  readonly facts: RevisionFacts;
  readonly transports: readonly Transport[];
  readonly checklist: Checklist;
}
