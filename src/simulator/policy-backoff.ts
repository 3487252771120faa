import type { BackoffParameters } from '../fixtures/fixture-types.js';
import { backoffDelay } from '../reference/recovery.js';
import type { Transcript } from './transcript.js';

export interface HerdOutcome {
  readonly clients: number;
  /** The wait's ceiling at each attempt. */
  readonly ceilings: readonly number[];
  /** The most clients that come back in the same millisecond, at the last attempt. */
  readonly largestGroup: number;
  readonly lastWindow: { readonly from: number; readonly to: number };
  /** The first attempt: the most clients back in the same millisecond, and when they came back. */
  readonly firstLargestGroup: number;
  readonly firstWindow: { readonly from: number; readonly to: number };
}

/** A herd's waits depend only on the backoff and its size: computed once per process for each (the same defaults recur in every operation). */
const herds = new Map<string, { notes: string[]; outcome: HerdOutcome }>();
const MAX_REMEMBERED_HERDS = 64;

/**
 * A herd of clients that failed together, each waiting as the policy's backoff says before attempt after
 * attempt. The reference backoffDelay computes every wait with the declared base, cap and jitter; where the
 * policy declares no cap the waits keep doubling, and where it declares no backoff at all every client comes
 * back at once.
 */
export function runHerd(
  at: number,
  backoff: BackoffParameters | null,
  clients: number,
  attempts: number,
  transcript: Transcript,
  what: string,
): HerdOutcome {
  const key = JSON.stringify([backoff, clients, attempts]);
  let herd = herds.get(key);
  if (herd === undefined) {
    herd = computeHerd(backoff, clients, attempts);
    if (herds.size >= MAX_REMEMBERED_HERDS) herds.delete(herds.keys().next().value!);
    herds.set(key, herd);
  }
  const baseMs = backoff?.baseMs ?? 250;
  const jitter = backoff?.jitter ?? 'none';
  const capMs = backoff?.capMs ?? null;
  transcript.note(
    at,
    'client',
    backoff === null
      ? `${clients} clients ${what}; no backoff is declared: each comes back at once`
      : `${clients} clients ${what}; backoff base ${baseMs} ms, cap ${capMs ?? 'none'}, jitter ${jitter}`,
  );
  for (const note of herd.notes) transcript.note(at, 'client', note);
  return herd.outcome;
}

function computeHerd(backoff: BackoffParameters | null, clients: number, attempts: number): { notes: string[]; outcome: HerdOutcome } {
  const baseMs = backoff?.baseMs ?? 250;
  const jitter = backoff?.jitter ?? 'none';
  const capMs = backoff?.capMs ?? null;
  // A base or a cap of 0 ms: every wait is 0, each client comes back at once (the reference backoff takes neither).
  const immediate = backoff === null || baseMs === 0 || capMs === 0;
  const notes: string[] = [];
  const ceilings: number[] = [];
  let largestGroup = clients;
  let lastWindow = { from: 0, to: 0 };
  let firstLargestGroup = clients;
  let firstWindow = { from: 0, to: 0 };
  for (let attempt = 0; attempt < attempts; attempt++) {
    const counts = new Map<number, number>();
    let from = Number.POSITIVE_INFINITY;
    let to = 0;
    for (let client = 0; client < clients; client++) {
      const delay = immediate
        ? 0
        : backoffDelay(`client-${client}`, attempt, { baseMs, capMs: capMs ?? Number.MAX_SAFE_INTEGER, jitter }).delayMs;
      counts.set(delay, (counts.get(delay) ?? 0) + 1);
      from = Math.min(from, delay);
      to = Math.max(to, delay);
    }
    const ceiling = immediate ? 0 : Math.min(capMs ?? Number.MAX_SAFE_INTEGER, baseMs * 2 ** Math.min(attempt, 60));
    ceilings.push(ceiling);
    largestGroup = 0;
    for (const count of counts.values()) largestGroup = Math.max(largestGroup, count);
    lastWindow = { from: clients === 0 ? 0 : from, to };
    if (attempt === 0) {
      firstLargestGroup = largestGroup;
      firstWindow = lastWindow;
    }
    notes.push(
      `attempt ${attempt + 1}: waits up to ${ceiling} ms; the herd comes back between ${lastWindow.from} and ${lastWindow.to} ms, ` +
        `at most ${largestGroup} in the same millisecond`,
    );
  }
  return { notes, outcome: { clients, ceilings, largestGroup, lastWindow, firstLargestGroup, firstWindow } };
}
