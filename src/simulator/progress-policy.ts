import type { FixtureParameters } from '../fixtures/fixture-types.js';
import { progressTiedToRequestStream } from '../policy/predicates.js';
import type { SpecVersion } from '../spec/revisions.js';

/**
 * How a reporter with this policy reports progress, for a request and for a Task alike: the value it sends (a
 * reporter whose policy does not keep progress increasing reports its last value again), and whether it sends it
 * on the subscriptions/listen stream (Streamable HTTP, a revision that ties progress to the originating request's
 * stream, and a policy that names the listen stream instead). Pure.
 */
export function reportedProgress(
  parameters: FixtureParameters,
  last: number | undefined,
  value: number,
): { sent: number; repeated: boolean } {
  const repeated = parameters.request?.progressMonotonic === false && last !== undefined;
  return { sent: repeated ? last : value, repeated };
}

export function progressOnListenStream(parameters: FixtureParameters, specVersion: SpecVersion, http: boolean): boolean {
  return http && parameters.request?.progressStream === 'listen' && progressTiedToRequestStream(specVersion);
}

/** The transcript's note for a repeated value. */
export function repeatedProgressNote(sent: number, value: number): string {
  return `the policy does not keep progress increasing: it reports ${sent} again instead of ${value}`;
}
