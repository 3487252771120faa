import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FixtureParameters } from '../fixtures/fixture-types.js';
import { callerOf } from '../fixtures/ledger-fixtures.js';
import { IdempotencyKeyMismatchError, KeyInFlightError } from '../reference/errors.js';
import { type IdempotencyLedger, sqliteLedger } from '../reference/idempotency-ledger.js';
import { PostgresMutationLedger } from '../reference/postgres-mutation-ledger.js';
import { fixtureOperation } from './fixture-operation.js';
import { keyOptions, ledgerClock, raceConnections, raceProcesses, SIMULATED_LEDGER } from './race.js';
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
 * policy returns stored objects; a reused key replayed or executed when the policy does not reject it; when
 * key check and effect are not one atomic commit, two racers that both check before either writes; keys
 * forgotten once their declared lifetime (idempotency.keyTtlMs) has passed on the logical clock; and what a
 * racer gets while the other's claim of the key is in flight (idempotency.whileInFlight); and keys scoped to the
 * tenant or the grant that sent them (idempotency.keyScope), or one key space for every tenant when the scope is
 * global or undeclared. A step's connection may name its tenant (`A:tenant-b`, see tenantConnection); a script
 * whose connections name none has one caller, whose keys are kept as given (a scope would change no outcome).
 */
export class PolicyLedgers {
  readonly #connections = new Map<string, IdempotencyLedger>();
  /** PostgreSQL schemas made for this run (dropped at close); their names differ per run, never in the transcript. */
  readonly #schemas = new Set<string>();
  readonly #run = randomBytes(4).toString('hex');
  readonly #aliased = new Map<string, unknown>();
  /** When each key was stored, on the logical clock, by the ledger that holds it (only with a declared lifetime). */
  readonly #storedAt = new Map<string, number>();
  /** The tenant whose request stored each key, by the ledger that holds it: a replay to another tenant is a leak. */
  readonly #owners = new Map<string, string>();
  readonly #operation;
  #executions = 0;
  /** The logical clock the ledgers measure key lifetimes on: the time of the step being run. */
  #now = 0;

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

  /** How long a key is kept (idempotency.keyTtlMs); null when undeclared (or in an older fixture): for ever. */
  get #keyTtlMs(): number | null {
    return this.parameters.request?.keyTtlMs ?? null;
  }

  /** The reference ledger's options: the simulator's, and the declared key lifetime on the logical clock. */
  #ledgerOptions() {
    const ttl = this.#keyTtlMs;
    // A lifetime of 0 keeps no key at all: the simulator sends the ledger none (see #lookup).
    return ttl === null || ttl === 0 ? SIMULATED_LEDGER : { ...SIMULATED_LEDGER, ...ledgerClock(ttl, () => this.#now) };
  }

  /** Which ledger holds a connection's records: its own in memory, its replica's, or the one they share. */
  #holderOf(named: string): string {
    const { connection } = callerOf(named);
    if (this.store.ranOn === 'memory') return `memory ${connection}`;
    return this.#separate ? `replica ${connection}` : 'shared';
  }

  /**
   * The scope the ledger keys a connection's requests in: its tenant, its tenant's grant, or none — keys global
   * or the scope undeclared (the unsafe assumption on a shared server), or a connection that names no tenant.
   */
  #scopeOf(named: string): string | undefined {
    const scope = this.parameters.request?.keyScope ?? null;
    const { tenant } = callerOf(named);
    if (tenant === undefined) return undefined;
    if (scope === 'tenant') return tenant;
    if (scope === 'grant') return grantOf(tenant);
    return undefined;
  }

  /** Where a key's record is held, for lifetimes, owners and aliases: the ledger, the scope, the key as given. */
  #held(named: string, key: string): string {
    return `${this.#holderOf(named)}\u0000${this.#scopeOf(named) ?? ''}\u0000${key}`;
  }

  /** What the transcript says of a request from a named tenant before its key is looked up: the tenant, and where. */
  #describeCaller(at: number, named: string, key: string | undefined): void {
    const { connection, tenant } = callerOf(named);
    if (tenant === undefined) return;
    const declared = this.parameters.request?.keyScope ?? null;
    const from = `this request is from tenant ${tenant} (on connection ${connection})`;
    if (key === undefined) {
      this.transcript.note(at, 'server', from);
      return;
    }
    this.transcript.note(
      at,
      'server',
      declared === 'tenant' || declared === 'grant'
        ? `${from}; idempotency.keyScope is ${declared}, so key ${key} is looked up among the keys of ${scopeWords(declared, tenant)} only`
        : declared === 'global'
          ? `${from}; idempotency.keyScope is global, so key ${key} is looked up among every tenant's keys`
          : `${from}; idempotency.keyScope is not declared: simulated as global (the unsafe assumption on a server shared by tenants), ` +
            `so key ${key} is looked up among every tenant's keys`,
    );
  }

  /** The key of a request found another tenant's record: say whose (only where connections name their tenants). */
  #crossTenant(at: number, named: string, key: string, what: (tenant: string, owner: string) => string): void {
    const tenant = callerOf(named).tenant;
    const owner = this.#owners.get(this.#held(named, key));
    if (tenant === undefined || owner === undefined || owner === tenant) return;
    this.transcript.note(
      at,
      'ledger',
      `tenant ${tenant}'s key ${key} found tenant ${owner}'s record (one key space for every tenant): ${what(tenant, owner)}`,
    );
  }

  /**
   * The key as the ledger can still use it at `at`: once keyTtlMs has passed since it was stored, the ledger
   * has forgotten it (the reference ledger, given the lifetime and the logical clock, no longer finds it; the
   * transcript says so here). With a lifetime of 0 no key is kept, so none is sent: undefined.
   */
  #lookup(at: number, connection: string, key: string | undefined): string | undefined {
    const ttl = this.#keyTtlMs;
    if (key === undefined || ttl === null) return key;
    const held = this.#held(connection, key);
    const storedAt = this.#storedAt.get(held);
    if (storedAt !== undefined && at - storedAt >= ttl) {
      this.transcript.note(
        at,
        'ledger',
        `key ${keyWords(key, this.#scopeOf(connection))} expired after ${at - storedAt} ms (idempotency.keyTtlMs: ${ttl}): ` +
          'the ledger no longer knows it',
      );
      this.#storedAt.delete(held);
      this.#owners.delete(held);
      this.#aliased.delete(this.#aliasOf(connection, key));
    }
    return ttl === 0 ? undefined : key;
  }

  /** A keyed execution committed at `at`: its key's lifetime starts (with a declared lifetime). */
  #stored(at: number, connection: string, key: string, quiet = false): void {
    const { tenant } = callerOf(connection);
    if (tenant !== undefined) this.#owners.set(this.#held(connection, key), tenant);
    const ttl = this.#keyTtlMs;
    if (ttl === null) return;
    this.#storedAt.set(this.#held(connection, key), at);
    if (ttl === 0 && !quiet)
      this.transcript.note(at, 'ledger', `key ${key} is not kept: idempotency.keyTtlMs is 0, so the ledger forgets it at once`);
  }

  /** Each replica has a ledger of its own: the ledger is process-local and there are several replicas. */
  get #separate(): boolean {
    return this.parameters.replicas > 1 && !this.parameters.ledger.sharedAcrossReplicas;
  }

  /** Where a connection's records live, by the policy: a SQLite file, or ':memory:'. */
  pathOf(named: string): string {
    const { connection } = callerOf(named);
    if (!this.parameters.ledger.durable) return ':memory:';
    return join(this.workDir(), this.#separate ? `ledger-replica-${connection}.sqlite` : 'ledger.sqlite');
  }

  /** The PostgreSQL schema of a connection's records (one per run, or per replica when they are separate). */
  schemaOf(named: string): string {
    const { connection } = callerOf(named);
    const schema = `mcprely_fixture_${this.#run}${this.#separate ? `_${connection.toLowerCase().replace(/[^a-z0-9]/g, '_')}` : ''}`;
    this.#schemas.add(schema);
    return schema;
  }

  describe(named: string): string {
    const { connection: ledger, tenant } = callerOf(named);
    const connection = tenant === undefined ? ledger : `${ledger} (tenant ${tenant})`;
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

  async charge(at: number, connection: string, args: Record<string, unknown>, given: string | undefined): Promise<ChargeOutcome> {
    this.#now = at;
    this.#describeCaller(at, connection, given);
    const ledger = await this.#open(at, connection);
    const key = this.#lookup(at, connection, given);
    const scope = this.#scopeOf(connection);
    try {
      const outcome = await ledger.execute(this.#operation, args, keyOptions(key, scope));
      if (!outcome.replayed && given !== undefined) this.#stored(at, connection, given);
      const returned = this.#returned(at, connection, key, outcome.result, outcome.replayed);
      if (outcome.replayed && key !== undefined) this.#crossTenant(at, connection, key, LEAK);
      return returned;
    } catch (error) {
      if (!(error instanceof IdempotencyKeyMismatchError) || key === undefined) throw error;
      const words = keyWords(key, scope);
      const policy = this.parameters.onKeyReuseWithOtherArguments;
      // A policy silent about a key reused with other arguments has no such check: a ledger that looks the key
      // up and answers with what it stored, the arguments unread (fixture-parameters' rule for an unset mechanism).
      if (policy === 'replay' || policy === null) {
        this.transcript.note(
          at,
          'ledger',
          policy === null
            ? `key ${words} reused with other arguments: the policy declares no check of the arguments, so the ledger replays the stored result`
            : `key ${words} reused with other arguments: the policy replays the stored result instead of rejecting`,
        );
        const returned = this.#returned(
          at,
          connection,
          key,
          (await ledger.reconcile(key, scope === undefined ? {} : { scope }))!.result,
          true,
        );
        this.#crossTenant(at, connection, key, LEAK);
        return returned;
      }
      if (policy === 'execute') {
        this.transcript.note(at, 'ledger', `key ${words} reused with other arguments: the policy executes again`);
        this.#crossTenant(at, connection, key, () => 'this execution is stored under no key, so a retry of it runs again');
        return this.#returned(at, connection, undefined, (await ledger.execute(this.#operation, args)).result, false);
      }
      this.transcript.note(at, 'ledger', `rejected: ${error.message}; nothing executed`);
      this.#crossTenant(at, connection, key, REJECTED);
      return { rejected: error.message };
    }
  }

  /** Looks a key up without executing anything: the stored result, or undefined when nothing committed. */
  async reconcile(at: number, connection: string, key: string): Promise<unknown> {
    this.#now = at;
    const ledger = await this.#open(at, connection);
    const kept = this.#lookup(at, connection, key);
    const scope = this.#scopeOf(connection);
    const record = kept === undefined ? undefined : await ledger.reconcile(kept, scope === undefined ? {} : { scope });
    const words = keyWords(key, scope);
    this.transcript.note(
      at,
      'ledger',
      record === undefined ? `key ${words}: no record` : `key ${words}: a committed record (reconcile by key)`,
    );
    if (record === undefined) return undefined;
    const returned = this.#returned(at, connection, key, record.result, true);
    return 'result' in returned ? returned.result : undefined;
  }

  async reopen(at: number, named: string): Promise<void> {
    const { connection } = callerOf(named);
    this.#now = at;
    await this.#connections.get(connection)?.close();
    this.#connections.delete(connection);
    this.#aliased.clear();
    // An in-memory ledger loses its records with its connection, and with them their lifetimes and owners.
    if (this.store.ranOn === 'memory')
      for (const records of [this.#storedAt, this.#owners])
        for (const held of [...records.keys()]) if (held.startsWith(`memory ${connection}\u0000`)) records.delete(held);
    this.transcript.note(at, 'ledger', `connection ${connection} closed`);
    await this.#open(at, connection);
  }

  async race(at: number, connections: readonly string[], args: Record<string, unknown>, key: string): Promise<Map<string, ChargeOutcome>> {
    this.#now = at;
    for (const connection of connections) this.transcript.note(at, 'ledger', this.describe(connection));
    // A key stored earlier may have expired by now; a lifetime of 0 keeps none, so the racers send none.
    const keyed = new Map(connections.map((connection) => [connection, this.#lookup(at, connection, key)]));
    if (this.#keyTtlMs === 0)
      this.transcript.note(at, 'ledger', 'idempotency.keyTtlMs is 0: the ledger keeps no key, so no racer can find the key of another');
    const outcomes = new Map<string, ChargeOutcome>();
    if (!this.parameters.ledger.atomicWithEffect) {
      // Not one atomic commit: every racer checks the key, finds nothing, then executes and stores.
      this.transcript.note(at, 'ledger', 'key check and effect are separate steps (not atomic): every racer checks before any stores');
      for (const connection of connections) {
        const ledger = await this.#open(at, connection);
        const kept = keyed.get(connection);
        const scope = this.#scopeOf(connection);
        const found = kept === undefined ? undefined : await ledger.reconcile(kept, scope === undefined ? {} : { scope });
        this.transcript.note(
          at,
          'ledger',
          `connection ${connection}: key ${keyWords(key, scope)} ${found === undefined ? 'not found' : 'found'}`,
        );
      }
      for (const connection of connections) {
        const ledger = await this.#open(at, connection);
        outcomes.set(connection, this.#returned(at, connection, undefined, (await ledger.execute(this.#operation, args)).result, false));
      }
      return outcomes;
    }
    const inFlight = this.parameters.request?.whileInFlight ?? null;
    if (inFlight !== null && inFlight !== 'wait' && this.#keyTtlMs !== 0) {
      if (this.#sharesOneLedger(connections)) return this.#raceInFlight(at, connections, args, key, inFlight);
      this.transcript.note(
        at,
        'ledger',
        `the connections do not share one ledger: none sees another's claim of the key, so idempotency.whileInFlight (${inFlight}) never comes into play`,
      );
    }
    for (const { connection } of connections.map(callerOf)) await this.#connections.get(connection)?.close();
    for (const { connection } of connections.map(callerOf)) this.#connections.delete(connection);
    this.#opened = true;
    const ttl = this.#keyTtlMs;
    const job = (connection: string, scope = this.#scopeOf(connection)) => ({
      connection,
      operation: this.operationName,
      fingerprint: this.parameters.fingerprint,
      arguments: args,
      key: keyed.get(connection),
      ...(scope === undefined ? {} : { scope }),
      // Each racer measures the key's lifetime on the logical clock, stopped at the race's time.
      ...(ttl === null || ttl === 0 ? {} : { keyTtlMs: ttl, now: at }),
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
        if (!outcome.replayed) {
          this.#executions++;
          // The race's note above already says that a lifetime of 0 keeps no key.
          this.#stored(at, outcome.connection, key, true);
        }
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

  /** Every connection reaches the same ledger: durable, and shared by the replicas (or one replica). */
  #sharesOneLedger(connections: readonly string[]): boolean {
    return new Set(connections.map((connection) => this.#holderOf(connection))).size === 1;
  }

  /**
   * The race under a declared answer for a key in flight other than waiting, on one shared ledger. The order
   * is fixed (a timed race would give a different transcript each run): the first connection claims the key
   * and executes; each other one arrives while that claim is in flight and gets what the policy says —
   * `conflict`: refused with nothing run (the reference ledger's KeyInFlightError), then it retries after the
   * first committed and gets the replay; `execute`: it runs without waiting for the claim, a second execution;
   * `replay`: it is answered at once with a replay, but nothing is stored yet, so the result is empty.
   */
  async #raceInFlight(
    at: number,
    connections: readonly string[],
    args: Record<string, unknown>,
    key: string,
    policy: 'conflict' | 'replay' | 'execute',
  ): Promise<Map<string, ChargeOutcome>> {
    const [first, ...others] = connections as [string, ...string[]];
    const outcomes = new Map<string, ChargeOutcome>();
    const before = this.#executions;
    for (const connection of connections) await this.#open(at, connection);
    const otherNames = others.map((connection) => `connection ${connection}`).join(', ');
    this.transcript.note(
      at,
      'ledger',
      `idempotency.whileInFlight is ${policy}: simulated in a fixed order — connection ${first} claims key ${key} first, ` +
        `${otherNames} ${others.length === 1 ? 'arrives' : 'arrive'} while that execution is in flight`,
    );
    const inFlight = `key ${key} is in flight (claimed by connection ${first}, nothing committed yet)`;
    const late: string[] = [];
    for (const connection of others) {
      const ledger = await this.#open(at, connection);
      if (policy === 'conflict') {
        this.transcript.note(
          at,
          'ledger',
          `connection ${connection}: ${inFlight}: answered with a conflict — ${new KeyInFlightError(key).message}`,
        );
        late.push(connection);
      } else if (policy === 'execute') {
        this.transcript.note(
          at,
          'ledger',
          `connection ${connection}: ${inFlight}; the policy executes it anyway, without waiting for the claim`,
        );
        outcomes.set(connection, this.#returned(at, connection, undefined, (await ledger.execute(this.#operation, args)).result, false));
      } else {
        this.transcript.note(
          at,
          'ledger',
          `connection ${connection}: ${inFlight}; the policy answers with a replay at once, but no result is stored yet: an empty result`,
        );
        outcomes.set(connection, { result: {}, replayed: true });
      }
    }
    this.transcript.note(at, 'ledger', `connection ${first}: its execution of key ${key} commits`);
    outcomes.set(first, await this.charge(at, first, args, key));
    for (const connection of late) {
      this.transcript.note(at, 'ledger', `connection ${connection}: retries after connection ${first} committed`);
      outcomes.set(connection, await this.charge(at, connection, args, key));
    }
    this.transcript.note(
      at,
      'ledger',
      `${connections.length} connections on one key while it was in flight (${policy}): ${executionsWord(this.#executions - before)} of the effect`,
    );
    return new Map(connections.map((connection) => [connection, outcomes.get(connection)!]));
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

  async #open(at: number, named: string): Promise<IdempotencyLedger> {
    const { connection } = callerOf(named);
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
              ...(this.#keyTtlMs === null || this.#keyTtlMs === 0 ? {} : ledgerClock(this.#keyTtlMs, () => this.#now)),
            })
          : sqliteLedger(this.pathOf(connection), this.#ledgerOptions());
      this.#connections.set(connection, ledger);
      this.transcript.note(at, 'ledger', `${this.describe(connection)}: opened`);
    }
    return ledger;
  }

  #returned(at: number, connection: string, key: string | undefined, result: unknown, replayed: boolean): ChargeOutcome {
    if (!replayed) this.#executions++;
    this.transcript.note(
      at,
      'ledger',
      replayed
        ? `replayed the stored result of key ${keyWords(key ?? '', this.#scopeOf(connection))}`
        : `executed the effect (execution ${this.#executions})`,
    );
    if (this.parameters.returns === 'defensive-copy' || key === undefined) return { result, replayed };
    // The policy hands out the object it keeps: every caller of the key (in its scope) gets the same, mutable object.
    // A policy silent about it rebuilds nothing (fixture-parameters' rule for an unset mechanism): the same.
    const alias = this.#aliasOf(connection, key);
    if (!this.#aliased.has(alias)) this.#aliased.set(alias, result);
    return { result: this.#aliased.get(alias), replayed };
  }

  /** The object a shared-reference policy hands out for a key, by the key's scope. */
  #aliasOf(connection: string, key: string): string {
    return `${this.#scopeOf(connection) ?? ''}\u0000${key}`;
  }
}

/** A replay, and a rejection, across tenants, in the tenants' names. */
const LEAK = (tenant: string, owner: string) => `tenant ${tenant} received tenant ${owner}'s result, a cross-tenant leak`;
const REJECTED = (tenant: string, owner: string) =>
  `tenant ${tenant} is refused as if it had reused tenant ${owner}'s key with other arguments`;

/** A key as the client gave it, with its scope when it has one (never as the ledger stores it). */
function keyWords(key: string, scope: string | undefined): string {
  return scope === undefined ? key : `${key} (scope ${scope})`;
}

/** The grant (credential) a tenant's client sends with: one per tenant in the fixtures. */
function grantOf(tenant: string): string {
  return `${tenant}-grant`;
}

function scopeWords(scope: 'tenant' | 'grant', tenant: string): string {
  return scope === 'tenant' ? `tenant ${tenant}` : `tenant ${tenant}'s grant (${grantOf(tenant)})`;
}

function executionsWord(count: number): string {
  return `${count} execution${count === 1 ? '' : 's'}`;
}
