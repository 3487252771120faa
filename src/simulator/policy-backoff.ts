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
}

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
  const ceilings: number[] = [];
  let largestGroup = clients;
  let lastWindow = { from: 0, to: 0 };
  for (let attempt = 0; attempt < attempts; attempt++) {
    const delays: number[] = [];
    for (let client = 0; client < clients; client++) {
      if (backoff === null || baseMs === 0) delays.push(0);
      else delays.push(backoffDelay(`client-${client}`, attempt, { baseMs, capMs: capMs ?? Number.MAX_SAFE_INTEGER, jitter }).delayMs);
    }
    const ceiling = backoff === null || baseMs === 0 ? 0 : Math.min(capMs ?? Number.MAX_SAFE_INTEGER, baseMs * 2 ** Math.min(attempt, 60));
    ceilings.push(ceiling);
    const counts = new Map<number, number>();
    for (const delay of delays) counts.set(delay, (counts.get(delay) ?? 0) + 1);
    largestGroup = Math.max(...counts.values());
    lastWindow = { from: Math.min(...delays), to: Math.max(...delays) };
    transcript.note(
      at,
      'client',
      `attempt ${attempt + 1}: waits up to ${ceiling} ms; the herd comes back between ${lastWindow.from} and ${lastWindow.to} ms, ` +
        `at most ${largestGroup} in the same millisecond`,
    );
  }
  return { clients, ceilings, largestGroup, lastWindow };
}
