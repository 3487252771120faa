import { join } from 'node:path';
import type { FixtureParameters } from '../fixtures/fixture-types.js';
import { IdempotencyKeyMismatchError } from '../reference/errors.js';
import { MutationLedger } from '../reference/mutation-ledger.js';
import { fixtureOperation } from './fixture-operation.js';
import { raceConnections, SIMULATED_LEDGER } from './race.js';
import type { Transcript } from './transcript.js';

export type ChargeOutcome = { readonly result: unknown; readonly replayed: boolean } | { readonly rejected: string };

/**
 * The reference MutationLedger arranged as the operation's policy arranges its ledger: one SQLite file shared
 * by every connection, or one per replica when the ledger is process-local and there are several replicas;
 * in memory when it is not durable; results aliased when the policy returns stored objects; a reused key
 * replayed or executed when the policy does not reject it; and, when key check and effect are not one atomic
 * commit, two racers that both check before either writes.
 */
export class PolicyLedgers {
  readonly #connections = new Map<string, MutationLedger>();
  readonly #aliased = new Map<string, unknown>();
  readonly #operation;
  #executions = 0;

  constructor(
    /** The folder for ledger files, created on first use (most fixtures need none). */
    private readonly workDir: () => string,
    private readonly operationName: string,
    private readonly parameters: FixtureParameters,
    private readonly transcript: Transcript,
  ) {
    this.#operation = fixtureOperation(operationName, parameters.fingerprint);
  }

  get executions(): number {
    return this.#executions;
  }

  /** Where a connection's records live, by the policy. */
  pathOf(connection: string): string {
    if (!this.parameters.ledger.durable) return ':memory:';
    const separate = this.parameters.replicas > 1 && !this.parameters.ledger.sharedAcrossReplicas;
    return join(this.workDir(), separate ? `ledger-replica-${connection}.sqlite` : 'ledger.sqlite');
  }

  describe(connection: string): string {
    const path = this.pathOf(connection);
    if (path === ':memory:') return `connection ${connection}: an in-memory ledger of its own (the policy's ledger is not durable)`;
    return path.endsWith('ledger.sqlite')
      ? `connection ${connection}: the shared ledger file`
      : `connection ${connection}: the ledger file of its own replica (process-local with ${this.parameters.replicas} replicas)`;
  }

  charge(at: number, connection: string, args: Record<string, unknown>, key: string | undefined): ChargeOutcome {
    const ledger = this.#open(at, connection);
    try {
      const outcome = ledger.execute(this.#operation, args, key === undefined ? {} : { idempotencyKey: key });
      return this.#returned(at, key, outcome.result, outcome.replayed);
    } catch (error) {
      if (!(error instanceof IdempotencyKeyMismatchError) || key === undefined) throw error;
      const policy = this.parameters.onKeyReuseWithOtherArguments;
      if (policy === 'replay') {
        this.transcript.note(
          at,
          'ledger',
          `key ${key} reused with other arguments: the policy replays the stored result instead of rejecting`,
        );
        return this.#returned(at, key, ledger.reconcile(key)!.result, true);
      }
      if (policy === 'execute') {
        this.transcript.note(at, 'ledger', `key ${key} reused with other arguments: the policy executes again`);
        return this.#returned(at, undefined, ledger.execute(this.#operation, args).result, false);
      }
      this.transcript.note(at, 'ledger', `rejected: ${error.message}; nothing executed`);
      return { rejected: error.message };
    }
  }

  /** Looks a key up without executing anything: the stored result, or undefined when nothing committed. */
  reconcile(at: number, connection: string, key: string): unknown {
    const record = this.#open(at, connection).reconcile(key);
    this.transcript.note(
      at,
      'ledger',
      record === undefined ? `key ${key}: no record` : `key ${key}: a committed record (reconcile by key)`,
    );
    if (record === undefined) return undefined;
    const returned = this.#returned(at, key, record.result, true);
    return 'result' in returned ? returned.result : undefined;
  }

  reopen(at: number, connection: string): void {
    this.#connections.get(connection)?.close();
    this.#connections.delete(connection);
    this.#aliased.clear();
    this.transcript.note(at, 'ledger', `connection ${connection} closed`);
    this.#open(at, connection);
  }

  async race(at: number, connections: readonly string[], args: Record<string, unknown>, key: string): Promise<Map<string, ChargeOutcome>> {
    for (const connection of connections) this.transcript.note(at, 'ledger', this.describe(connection));
    const outcomes = new Map<string, ChargeOutcome>();
    if (!this.parameters.ledger.atomicWithEffect) {
      // Not one atomic commit: every racer checks the key, finds nothing, then executes and stores.
      this.transcript.note(at, 'ledger', 'key check and effect are separate steps (not atomic): every racer checks before any stores');
      for (const connection of connections) {
        const found = this.#open(at, connection).reconcile(key);
        this.transcript.note(at, 'ledger', `connection ${connection}: key ${key} ${found === undefined ? 'not found' : 'found'}`);
      }
      for (const connection of connections)
        outcomes.set(connection, this.#returned(at, undefined, this.#open(at, connection).execute(this.#operation, args).result, false));
      return outcomes;
    }
    for (const connection of connections) this.#connections.get(connection)?.close();
    for (const connection of connections) this.#connections.delete(connection);
    const paths = connections.map((connection) => this.pathOf(connection));
    const results = await raceConnections(
      connections.map((connection, index) => ({
        connection,
        path: paths[index]!,
        operation: this.operationName,
        fingerprint: this.parameters.fingerprint,
        arguments: args,
        key,
      })),
    );
    // Threads finish in any order; the transcript lists them by connection so reruns are identical.
    for (const outcome of results) {
      if ('error' in outcome) {
        this.transcript.note(at, 'ledger', `connection ${outcome.connection}: ${outcome.error}`);
        outcomes.set(outcome.connection, { rejected: outcome.error });
      } else {
        if (!outcome.replayed) this.#executions++;
        outcomes.set(outcome.connection, { result: outcome.result, replayed: outcome.replayed });
      }
    }
    const committed = results.filter((outcome) => 'replayed' in outcome && !outcome.replayed).length;
    this.transcript.note(
      at,
      'ledger',
      `${results.length} connections released together: ${committed} committed an execution, ${results.length - committed} replayed or were rejected`,
    );
    return outcomes;
  }

  close(): void {
    for (const ledger of this.#connections.values()) ledger.close();
    this.#connections.clear();
  }

  #open(at: number, connection: string): MutationLedger {
    let ledger = this.#connections.get(connection);
    if (ledger === undefined) {
      ledger = MutationLedger.open(this.pathOf(connection), SIMULATED_LEDGER);
      this.#connections.set(connection, ledger);
      this.transcript.note(at, 'ledger', `${this.describe(connection)}: opened`);
    }
    return ledger;
  }

  #returned(at: number, key: string | undefined, result: unknown, replayed: boolean): ChargeOutcome {
    if (!replayed) this.#executions++;
    this.transcript.note(
      at,
      'ledger',
      replayed ? `replayed the stored result of key ${key}` : `executed the effect (execution ${this.#executions})`,
    );
    if (this.parameters.returns !== 'shared-reference' || key === undefined) return { result, replayed };
    // The policy hands out the object it keeps: every caller of the key gets the same, mutable object.
    if (!this.#aliased.has(key)) this.#aliased.set(key, result);
    return { result: this.#aliased.get(key), replayed };
  }
}
