import type { Finding } from '../findings/finding.js';
import { generateFixtures } from '../fixtures/generate-fixtures.js';
import type { WireClaim } from '../live/wire-claims.js';
import { type LiveFixtureResult, liveFixtureResults } from '../probe/live-fixtures.js';
import type { ProbeReport } from '../probe/probe-types.js';
import type { LiveCallOptions } from './live-call-options.js';
import type { OnProbeEvent, OnProgress } from './on-progress.js';
import { probeForDrift } from './probe-for-drift.js';

/** The server a manifest is checked against: a command (stdio) or an endpoint, and how the probe calls it. */
export interface LiveServer extends LiveCallOptions {
  /** A command to run (no shell) that speaks MCP over its stdin and stdout. */
  readonly stdio?: string;
  /** A Streamable HTTP endpoint. */
  readonly url?: string;
}

/** A manifest's fixtures run against the live server it describes (only the command or URL given). */
export async function liveFixturesOf(
  manifest: string,
  server: LiveServer,
  onProgress?: OnProgress,
  onProbeEvent?: OnProbeEvent,
): Promise<
  | { ok: true; report: ProbeReport; results: LiveFixtureResult[]; drift: readonly Finding[]; claims: readonly WireClaim[] }
  | { ok: false; problem: string }
> {
  const run = await probeForDrift({
    ...server,
    manifest,
    ...(onProgress === undefined ? {} : { onProgress }),
    ...(onProbeEvent === undefined ? {} : { onProbeEvent }),
  });
  if (!run.ok) return run;
  return {
    ok: true,
    report: run.report,
    results: liveFixtureResults(generateFixtures(run.manifest), run.report),
    drift: run.findings,
    claims: run.claims,
  };
}
