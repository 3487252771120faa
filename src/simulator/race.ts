import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** What every contender of a race does: charge one key (in its scope) with these arguments, on its own connection. */
interface RaceCharge {
  readonly connection: string;
  readonly operation: string;
  readonly fingerprint: readonly string[] | null;
  readonly arguments: Record<string, unknown>;
  /** The key, or undefined when the policy keeps no key (idempotency.keyTtlMs: 0). */
  readonly key: string | undefined;
  /** The tenant or grant the key is scoped to (idempotency.keyScope); absent: the key is global. */
  readonly scope?: string;
  /** The declared key lifetime, measured on the logical clock stopped at `now` (absent: keys kept for ever). */
  readonly keyTtlMs?: number;
  readonly now?: number;
}

/** A contender on SQLite: a thread of its own with its own connection to the ledger file. */
export interface RaceJob extends RaceCharge {
  readonly path: string;
  readonly racers: number;
  readonly barrier: SharedArrayBuffer;
}

/** A contender of a race on PostgreSQL: a process of its own with its own connection pool. */
export interface ProcessRaceJob extends RaceCharge {
  readonly databaseUrl: string;
  readonly schema: string;
}

/** What the parent and a racing process say to each other over IPC. */
export type RaceMessage = { readonly ready: true } | { readonly outcome: RaceOutcome };

export type RaceOutcome =
  | { readonly connection: string; readonly result: unknown; readonly replayed: boolean }
  | { readonly connection: string; readonly error: string };

/**
 * How the simulator opens its throwaway ledgers: a racer waits up to 30 s for the other's lock (a loaded disk
 * must not fail a fixture), and commits are not synced to disk (killing the process still loses nothing).
 */
export const SIMULATED_LEDGER = { busyTimeoutMs: 30_000, synchronous: 'normal', create: true } as const;

/**
 * Where the fixture's logical clock starts on the ledger's clock: the reference ledger takes a record stored at
 * time 0 for one written before keys had a time (never expired), so logical time t is read as this epoch + t.
 * Only differences of it are ever shown.
 */
export const LEDGER_CLOCK_EPOCH_MS = 1_000_000_000_000;

/** The ledger's clock at logical time `at`, and the options that measure a key lifetime on it. */
export function ledgerClock(keyTtlMs: number, now: () => number) {
  return { keyTtlMs, now: () => LEDGER_CLOCK_EPOCH_MS + now() };
}

/** A racer's ledger options: the simulator's, with the declared key lifetime on the race's logical time. */
export function racerLedgerOptions(job: { readonly keyTtlMs?: number; readonly now?: number }) {
  const now = job.now ?? 0;
  return job.keyTtlMs === undefined ? SIMULATED_LEDGER : { ...SIMULATED_LEDGER, ...ledgerClock(job.keyTtlMs, () => now) };
}

/** The reference ledger's key options for a charge: its key, in its scope when it has one (none without a key). */
export function keyOptions(key: string | undefined, scope: string | undefined): { idempotencyKey?: string; scope?: string } {
  if (key === undefined) return {};
  return scope === undefined ? { idempotencyKey: key } : { idempotencyKey: key, scope };
}

/** How long a racer waits at the barrier for the others before it goes alone. */
export const BARRIER_DEADLINE_MS = 10_000;
/** How long the whole race may take before its threads are stopped. */
const RACE_DEADLINE_MS = 60_000;

/** The worker script: beside the bundle in dist/, or dist/ from the source tree (tests). */
function workerScript(): URL {
  const candidates = ['./race-worker.js', '../../dist/race-worker.js'].map((path) => new URL(path, import.meta.url));
  const found = candidates.find((candidate) => existsSync(fileURLToPath(candidate)));
  if (found === undefined) throw new Error('race-worker.js is missing from dist/; run node scripts/build.mjs');
  return found;
}

/**
 * Independent connections, one thread each, released together at a barrier; outcomes in connection order.
 * If one thread fails or the race overruns its deadline, every thread is stopped: none is left running.
 */
export async function raceConnections(jobs: readonly Omit<RaceJob, 'racers' | 'barrier'>[]): Promise<RaceOutcome[]> {
  const barrier = new SharedArrayBuffer(4);
  const script = workerScript();
  const workers = jobs.map((job) => new Worker(script, { workerData: { ...job, racers: jobs.length, barrier } satisfies RaceJob }));
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the race did not finish within ${RACE_DEADLINE_MS} ms`)), RACE_DEADLINE_MS);
  });
  const outcomes = workers.map(
    (worker) =>
      new Promise<RaceOutcome>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`race worker exited with code ${code} before reporting`)));
      }),
  );
  try {
    return await Promise.race([Promise.all(outcomes), overrun]);
  } finally {
    clearTimeout(timer);
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/**
 * Independent processes, one per contender, each opening its own PostgreSQL pool; when every one is ready (or
 * the barrier deadline passes) all are told to go at once; outcomes in connection order. A process that fails
 * or overruns is killed: none is left running.
 */
export async function raceProcesses(jobs: readonly ProcessRaceJob[]): Promise<RaceOutcome[]> {
  const script = fileURLToPath(workerScript());
  const children = jobs.map(() => fork(script, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' }));
  let timer: NodeJS.Timeout | undefined;
  let barrier: NodeJS.Timeout | undefined;
  const overrun = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the race did not finish within ${RACE_DEADLINE_MS} ms`)), RACE_DEADLINE_MS);
  });
  let ready = 0;
  const go = () => {
    clearTimeout(barrier);
    for (const child of children) if (child.connected) child.send('go');
  };
  barrier = setTimeout(go, BARRIER_DEADLINE_MS);
  const outcomes = children.map(
    (child, index) =>
      new Promise<RaceOutcome>((resolve, reject) => {
        let stderr = '';
        child.stderr?.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        child.on('message', (message: RaceMessage) => {
          if ('ready' in message) {
            if (++ready === children.length) go();
          } else resolve(message.outcome);
        });
        child.once('error', reject);
        child.once('exit', (code) => reject(new Error(`race process exited with code ${code} before reporting: ${stderr.slice(0, 300)}`)));
        child.send({ job: jobs[index]! });
      }),
  );
  try {
    return await Promise.race([Promise.all(outcomes), overrun]);
  } finally {
    clearTimeout(timer);
    clearTimeout(barrier);
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  }
}
