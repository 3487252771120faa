import type { LoadedManifest } from '../manifest/load.js';
import { retryClassOf } from '../policy/predicates.js';
import { reconnectPlan } from '../reference/recovery.js';

/** The reference reconnect plan of every operation beside what its policy declares. */
export function reconnectPlans(manifest: LoadedManifest): unknown[] {
  return manifest.operations.map(({ spec }) => {
    const inFlight = retryClassOf(spec).classification;
    const plan = reconnectPlan({
      specVersion: manifest.manifest.specVersion,
      previousRequestId: 'r1',
      affected: spec.recovery?.refetch ?? [],
      inFlight,
    });
    const reconnect = spec.recovery?.reconnect;
    return {
      operation: spec.name,
      plan,
      declared: {
        newRequestId: reconnect?.newRequestId ?? null,
        sendLastEventId: reconnect?.sendLastEventId ?? null,
        backoff: reconnect?.backoff ?? null,
        replayUnsafeMutations: spec.recovery?.replayUnsafeMutations ?? null,
      },
    };
  });
}
