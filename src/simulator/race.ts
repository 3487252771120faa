import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface RaceJob {
  readonly connection: string;
  readonly path: string;
  readonly operation: string;
  readonly fingerprint: readonly string[] | null;
  readonly arguments: Record<string, unknown>;
  readonly key: string;
  readonly racers: number;
  readonly barrier: SharedArrayBuffer;
}

export type RaceOutcome =
  | { readonly connection: string; readonly result: unknown; readonly replayed: boolean }
  | { readonly connection: string; readonly error: string };

/** The worker script: beside the bundle's chunks in dist/, or dist/ from the source tree (tests). */
function workerScript(): URL {
  const candidates = ['./race-worker.js', '../race-worker.js', '../../dist/race-worker.js'].map((path) => new URL(path, import.meta.url));
  const found = candidates.find((candidate) => existsSync(fileURLToPath(candidate)));
  if (found === undefined) throw new Error('race-worker.js is missing from dist/; run node scripts/build.mjs');
  return found;
}

/** Independent connections, one thread each, released together at a barrier; outcomes in connection order. */
export async function raceConnections(jobs: readonly Omit<RaceJob, 'racers' | 'barrier'>[]): Promise<RaceOutcome[]> {
  const barrier = new SharedArrayBuffer(4);
  const script = workerScript();
  return Promise.all(
    jobs.map(
      (job) =>
        new Promise<RaceOutcome>((resolve, reject) => {
          const worker = new Worker(script, { workerData: { ...job, racers: jobs.length, barrier } satisfies RaceJob });
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.once('exit', (code) => code !== 0 && reject(new Error(`race worker exited with code ${code}`)));
        }),
    ),
  );
}
