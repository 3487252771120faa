import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FixtureParameters } from '../fixtures/fixture-types.js';
import { IdempotencyKeyMismatchError } from '../reference/errors.js';
import { type IdempotencyLedger, sqliteLedger } from '../reference/idempotency-ledger.js';
import { PostgresMutationLedger } from '../reference/postgres-mutation-ledger.js';
import { fixtureOperation } from './fixture-operation.js';
import { raceConnections, raceProcesses, SIMULATED_LEDGER } from './race.js';
import type { Transcript } from './transcript.js';

export type ChargeOutcome = { readonly result: unknown; readonly replayed: boolean } | { readonly rejected: string };

/** Where the fixtures' ledgers may live besides SQLite: a PostgreSQL database (verify --database-url). */
export interface LedgerEnvironment {
  readonly databaseUrl?: string;
}

/** What a fixture's ledger ran on: the store the manifest declares, and the one the run used. */
export interface LedgerStoreUsed {
  readonly declared: string | null;
  readonly ranOn: 'postgresql' | 'sqlite' | 'memory';
  /** The manifest declares PostgreSQL but no database was given: SQLite stood in for it. */
  readonly standIn: boolean;
}

/**
 * The reference ledger arranged as the operation's policy arranges its ledger: one ledger shared by every
 * connection, or one per replica when the ledger is process-local and there are several replicas — SQLite files,
 * or, when the manifest declares PostgreSQL and a database is given, PostgreSQL schemas (each connection its own
 * pool, a race's contenders separate processes); in memory when it is not durable; results aliased when the
 * policy returns stored objects; a reused key replayed or executed when the policy does not reject it; and, when
 * key check and effect are not one atomic commit, two racers that both check before either writes.
 */
export class PolicyLedgers {
  readonly #connections = new Map<string, IdempotencyLedger>();
  /** PostgreSQL schemas made for this run (dropped at close); their names differ per run, never in the transcript. */
  readonly #schemas = new Set<string>();
  readonly #run = randomBytes(4).toString('hex');
  readonly #aliased = new Map<string, unknown>();
  readonly #operation;
  #executions = 0;

  constructor(
    /** The folder for ledger files, created on first use (most fixtures need none). */
    private readonly workDir: () => string,
    private readonly operationName: string,
    private readonly parameters: FixtureParameters,
    private readonly transcript: Transcript,
    private readonly environment: LedgerEnvironment = {},
  ) {
    this.#operation = fixtureOperation(operationName, parameters.fingerprint);
  }

  /** The store the run uses, by the policy and the environment. */
  get store(): LedgerStoreUsed {
    const declared = this.parameters.ledger.store ?? null;
    if (!this.parameters.ledger.durable) return { declared, ranOn: 'memory', standIn: false };
    if (declared !== 'postgres') return { declared, ranOn: 'sqlite', standIn: false };
    return this.environment.databaseUrl === undefined
      ? { declared, ranOn: 'sqlite', standIn: true }
      : { declared, ranOn: 'postgresql', standIn: false };
  }

  /** Whether any connection opened a ledger (fixtures without charges open none). */
  get used(): boolean {
    return this.#opened;
  }

  #opened = false;

  get executions(): number {
    return this.#executions;
  }

  /** Each replica has a ledger of its own: the ledger is process-local and there are several replicas. */
  get #separate(): boolean {
    return this.parameters.replicas > 1 && !this.parameters.ledger.sharedAcrossReplicas;
  }

  /** Where a connection's records live, by the policy: a SQLite file, or ':memory:'. */
  pathOf(connection: string): string {
    if (!this.parameters.ledger.durable) return ':memory:';
    return join(this.workDir(), this.#separate ? `ledger-replica-${connection}.sqlite` : 'ledger.sqlite');
  }

  /** The PostgreSQL schema of a connection's records (one per run, or per replica when they are separate). */
  schemaOf(connection: string): string {
    const schema = `mcprely_fixture_${this.#run}${this.#separate ? `_${connection.toLowerCase().replace(/[^a-z0-9]/g, '_')}` : ''}`;
    this.#schemas.add(schema);
    return schema;
  }

  describe(connection: string): string {
    const store = this.store;
    if (store.ranOn === 'memory') return `connection ${connection}: an in-memory ledger of its own (the policy's ledger is not durable)`;
    const kind =
      store.ranOn === 'postgresql'
        ? 'PostgreSQL ledger'
        : store.standIn
          ? 'ledger file (SQLite standing in for PostgreSQL)'
          : 'ledger file';
    const own = store.ranOn === 'postgresql' ? ', through a connection pool of its own' : '';
    return this.#separate
      ? `connection ${connection}: the ${kind} of its own replica (process-local with ${this.parameters.replicas} replicas)${own}`
      : `connection ${connection}: the shared ${kind}${own}`;
  }

  async charge(at: number, connection: string, args: Record<string, unknown>, key: string | undefined): Promise<ChargeOutcome> {
    const ledger = await this.#open(at, connection);
    try {
      const outcome = await ledger.execute(this.#operation, args, key === undefined ? {} : { idempotencyKey: key });
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
        return this.#returned(at, key, (await ledger.reconcile(key))!.result, true);
      }
      if (policy === 'execute') {
        this.transcript.note(at, 'ledger', `key ${key} reused with other arguments: the policy executes again`);
        return this.#returned(at, undefined, (await ledger.execute(this.#operation, args)).result, false);
      }
      this.transcript.note(at, 'ledger', `rejected: ${error.message}; nothing executed`);
      return { rejected: error.message };
    }
  }

  /** Looks a key up without executing anything: the stored result, or undefined when nothing committed. */
  async reconcile(at: number, connection: string, key: string): Promise<unknown> {
    const record = await (await this.#open(at, connection)).reconcile(key);
    this.transcript.note(
      at,
      'ledger',
      record === undefined ? `key ${key}: no record` : `key ${key}: a committed record (reconcile by key)`,
    );
    if (record === undefined) return undefined;
    const returned = this.#returned(at, key, record.result, true);
    return 'result' in returned ? returned.result : undefined;
  }

  async reopen(at: number, connection: string): Promise<void> {
    await this.#connections.get(connection)?.close();
    this.#connections.delete(connection);
    this.#aliased.clear();
    this.transcript.note(at, 'ledger', `connection ${connection} closed`);
    await this.#open(at, connection);
  }

  async race(at: number, connections: readonly string[], args: Record<string, unknown>, key: string): Promise<Map<string, ChargeOutcome>> {
    for (const connection of connections) this.transcript.note(at, 'ledger', this.describe(connection));
    const outcomes = new Map<string, ChargeOutcome>();
    if (!this.parameters.ledger.atomicWithEffect) {
      // Not one atomic commit: every racer checks the key, finds nothing, then executes and stores.
      this.transcript.note(at, 'ledger', 'key check and effect are separate steps (not atomic): every racer checks before any stores');
      for (const connection of connections) {
        const found = await (await this.#open(at, connection)).reconcile(key);
        this.transcript.note(at, 'ledger', `connection ${connection}: key ${key} ${found === undefined ? 'not found' : 'found'}`);
      }
      for (const connection of connections) {
        const ledger = await this.#open(at, connection);
        outcomes.set(connection, this.#returned(at, undefined, (await ledger.execute(this.#operation, args)).result, false));
      }
      return outcomes;
    }
    for (const connection of connections) await this.#connections.get(connection)?.close();
    for (const connection of connections) this.#connections.delete(connection);
    this.#opened = true;
    const job = (connection: string) => ({
      connection,
      operation: this.operationName,
      fingerprint: this.parameters.fingerprint,
      arguments: args,
      key,
    });
    const results =
      this.store.ranOn === 'postgresql'
        ? await raceProcesses(
            connections.map((connection) => ({
              ...job(connection),
              databaseUrl: this.environment.databaseUrl!,
              schema: this.schemaOf(connection),
            })),
          )
        : await raceConnections(connections.map((connection) => ({ ...job(connection), path: this.pathOf(connection) })));
    if (this.store.ranOn === 'postgresql')
      this.transcript.note(
        at,
        'ledger',
        `the ${connections.length} contenders are separate processes, each with its own connection pool, as replicas are`,
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

  /** Closes every connection and drops the PostgreSQL schemas this run made. */
  async close(): Promise<void> {
    for (const ledger of this.#connections.values()) await ledger.close().catch(() => {});
    this.#connections.clear();
    const url = this.environment.databaseUrl;
    if (url !== undefined)
      for (const schema of this.#schemas) await PostgresMutationLedger.drop({ connectionString: url, schema }).catch(() => {});
    this.#schemas.clear();
  }

  async #open(at: number, connection: string): Promise<IdempotencyLedger> {
    let ledger = this.#connections.get(connection);
    if (ledger === undefined) {
      const store = this.store;
      if (!this.#opened && store.standIn)
        this.transcript.note(
          at,
          'ledger',
          'the manifest keeps this ledger in PostgreSQL; no database was given, so SQLite stands in for it (verify --database-url runs it on PostgreSQL)',
        );
      this.#opened = true;
      ledger =
        store.ranOn === 'postgresql'
          ? await PostgresMutationLedger.open({
              connectionString: this.environment.databaseUrl!,
              schema: this.schemaOf(connection),
              create: true,
              poolSize: 2,
            })
          : sqliteLedger(this.pathOf(connection), SIMULATED_LEDGER);
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
