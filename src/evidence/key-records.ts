import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { businessArguments } from '../fixtures/fixture-context.js';
import { fixtureParameters } from '../fixtures/fixture-parameters.js';
import type { LoadedManifest } from '../manifest/load.js';
import { isKeyedMutation } from '../policy/predicates.js';
import { IdempotencyKeyMismatchError } from '../reference/errors.js';
import { MutationLedger } from '../reference/mutation-ledger.js';
import { fixtureOperation } from '../simulator/fixture-operation.js';
import { SIMULATED_LEDGER } from '../simulator/race.js';

/** Each keyed mutation committed once on a fresh reference ledger, its record read back by key, and a mismatch attempted. */
export function keyRecords(manifest: LoadedManifest): unknown[] {
  const directory = mkdtempSync(join(tmpdir(), 'mcprely-evidence-'));
  try {
    return manifest.operations
      .filter((operation) => isKeyedMutation(operation.spec))
      .map((operation) => {
        const parameters = fixtureParameters(manifest.manifest, operation);
        const context = { manifest: manifest.manifest, operation, parameters, transports: [] };
        const ledger = MutationLedger.open(join(directory, `${operation.index}.sqlite`), SIMULATED_LEDGER);
        const business = fixtureOperation(operation.spec.name, parameters.fingerprint);
        const args = businessArguments(context);
        ledger.execute(business, args, { idempotencyKey: 'checkout-7' });
        let mismatch: string;
        try {
          ledger.execute(business, businessArguments(context, 1), { idempotencyKey: 'checkout-7' });
          mismatch = 'accepted (the fingerprint binds no argument that changed)';
        } catch (error) {
          mismatch = error instanceof IdempotencyKeyMismatchError ? `rejected: ${error.message}` : String(error);
        }
        const record = ledger.reconcile('checkout-7');
        const executions = ledger.executionCount();
        ledger.close();
        return {
          operation: operation.spec.name,
          keyArgument: parameters.keyArgument,
          arguments: args,
          record,
          executions,
          reuseWithChangedArguments: mismatch,
        };
      });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
