import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ClientReport, serverFailures } from '../probe-client/client-report-file.js';
import type { ScenarioOutcome } from '../../src/probe-client/scenario-outcomes.js';
import { scenarioTools } from '../../src/probe-client/scenario-protocol.js';
import { CLI, runCliAsync } from '../helpers/run-cli.js';
import { python } from './sdk-server-process.js';

/**
 * The official client libraries driven through `mcprely probe-client`, over stdio and Streamable HTTP, both
 * revisions where the library speaks them: every scenario's outcome asserted against what the library's source does
 * (docs/client-profiles.md names the line behind each). TRUTH_TABLE=1 prints the table instead of asserting.
 */
const folder = mkdtempSync(join(tmpdir(), 'mcprely-clients-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

type Client = 'ts-sdk-v1' | 'ts-sdk-v2' | 'python-sdk';
type Revision = '2025-11-25' | '2026-07-28';
/** A revision the driver asks the library for, or `auto`: the library's own version negotiation, as it ships. */
type Negotiation = Revision | 'auto';
type Outcome = 'pass' | 'fail' | 'inconclusive' | 'not-observable';

// The drops first: what a client does after a broken stream is judged once its own timeout has passed, so the
// session must go on after them.
const ALL = [
  'drop_stream_unresumable',
  'drop_stream_resumable',
  'never_answers',
  'answers_after',
  'progress_forever',
  'progress_then_finish',
  'fails',
  'slow_write',
];
const STDIO_SCENARIOS = ALL.filter((name) => !name.startsWith('drop_stream'));

/** What the host claims (the judges' timeouts) and the library's options that make it so. */
interface Setup {
  readonly name: string;
  /** The scenarios it calls, when not every one the transport plays. */
  readonly scenarios?: readonly string[];
  readonly judge: readonly string[];
  readonly driver: readonly string[];
}
/** A 600 ms timeout, progress asked for, the answered call's abort signal fired later, a timed-out write retried with its key. */
const TIMEOUT: Setup = {
  name: 'timeout 600 ms',
  judge: ['--idle-timeout', '600', '--max-timeout', '1800'],
  driver: ['--timeout', '600', '--progress', '--abort-after-response', '--retry-with-key'],
};
/**
 * The dropped stream advises a reconnection after 1.5 s (a server that polls), well after the 600 ms timeout: the library
 * cancels at its timeout, and a library that then resumes the cancelled call's stream fails. (At the scenario's own
 * retry the resumption comes first and gets the answer: the rows above.)
 */
const LATE_RETRY: Setup = {
  name: 'timeout 600 ms, the stream advises retry 1.5 s',
  // Calls after the drop keep the session open past the reconnection.
  scenarios: ['drop_stream_resumable', 'never_answers', 'progress_forever', 'never_answers'],
  judge: ['--idle-timeout', '600', '--max-timeout', '1800'],
  driver: ['--timeout', '600', '--progress', '--drop-retry', '1500'],
};
/**
 * A 1.2 s timeout reset by progress (which comes every 400 ms) and a maximum of 1.5 s, in the libraries that have
 * one: the maximum passes between two progress notifications, so a library that checks it only when progress
 * arrives is late by up to one interval, and its stale idle timer later still.
 */
const MAXIMUM: Setup = {
  name: 'reset on progress, maximum 1500 ms',
  // The drops are TIMEOUT's: here a resumption and the reset timeout end within the same few ms.
  scenarios: STDIO_SCENARIOS,
  judge: ['--idle-timeout', '1200', '--max-timeout', '1500'],
  driver: ['--timeout', '1200', '--reset-on-progress', '--max-total', '1500', '--progress'],
};

interface Row {
  readonly client: Client;
  readonly transport: 'stdio' | 'http';
  readonly revision: Negotiation;
  readonly setup: Setup;
  /** The outcome of each scenario called, as the library's source has it. */
  readonly expected: Readonly<Record<string, Outcome>>;
}

function driverCommand(client: Client): string[] {
  if (client === 'python-sdk') return [python ?? 'python3', 'test/probe-client/clients/python-sdk.py'];
  return ['node', `test/probe-client/clients/${client}.mjs`];
}

const quote = (word: string) => (/[\s'"]/.test(word) ? `'${word}'` : word);

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** What the driver printed: its own stdout over stdio (it starts the server), the server's stderr over HTTP. */
  readonly driverOutput: string;
}

/** Runs `driver` against probe-client (judged with `judging`): over HTTP probe-client starts it, over stdio it starts probe-client. */
async function meet(transport: 'stdio' | 'http', driver: readonly string[], judging: readonly string[]): Promise<Run> {
  if (transport === 'http') {
    const run = await runCliAsync(['probe-client', ...judging, '--run', driver.map(quote).join(' ')]);
    return { ...run, driverOutput: run.stderr };
  }
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    const child = spawn(
      driver[0] as string,
      [...driver.slice(1), '--stdio', process.execPath, CLI, 'probe-client', '--stdio', ...judging],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (status) => setTimeout(() => resolve({ status, stdout, stderr, driverOutput: stdout }), 500));
  });
}

let runs = 0;
async function play(row: Row): Promise<{ outcomes: ScenarioOutcome[]; stderr: string; status: number | null }> {
  const report = join(folder, `report-${++runs}.json`);
  const scenarios = row.setup.scenarios ?? (row.transport === 'http' ? ALL : STDIO_SCENARIOS);
  const driver = [...driverCommand(row.client), ...row.setup.driver, '--protocol', row.revision, '--scenarios', scenarios.join(',')];
  const run = await meet(row.transport, driver, [...row.setup.judge, '--tolerance', '500', '--report-json', report]);
  // Over stdio the server judges and writes its report after the driver has gone: a loaded machine takes a while.
  for (let waited = 0; !existsSync(report) && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as ClientReport;
  // The scenario server is mcprely's own: whatever the library did, it never fails a server judge.
  expect(serverFailures(parsed)).toEqual([]);
  return { outcomes: parsed.outcomes.filter((one) => scenarios.includes(one.scenario)), stderr: run.stderr, status: run.status };
}

const P: Outcome = 'pass';
const F: Outcome = 'fail';
const I: Outcome = 'inconclusive';
const N: Outcome = 'not-observable';
const ROWS: Row[] = [];
const row = (client: Client, transport: 'stdio' | 'http', revision: Negotiation, setup: Setup, expected: Record<string, Outcome>) =>
  ROWS.push({ client, transport, revision, setup, expected });

/** Every scenario a transport plays, passed: then the ones the library breaks, each named in docs/client-profiles.md. */
const expect25 = (
  transport: 'stdio' | 'http',
  broken: Record<string, Outcome>,
  scenarios = transport === 'http' ? ALL : STDIO_SCENARIOS,
) => ({
  ...Object.fromEntries(scenarios.map((name) => [name, P])),
  ...broken,
});

// TypeScript SDK v1: an abort signal fired after the answer still sends notifications/cancelled (its listener is never
// removed); an SSE stream ended after an error response is resumed (only a result counts as the answer); the stream of a
// cancelled call is resumed; maxTotalTimeout is checked only when progress arrives, the caller rejected without a
// cancellation, which the stale idle timer sends an idle period late.
const V1_ABORT = { answers_after: F, fails: F };
row('ts-sdk-v1', 'stdio', '2025-11-25', TIMEOUT, expect25('stdio', V1_ABORT));
row('ts-sdk-v1', 'http', '2025-11-25', TIMEOUT, expect25('http', V1_ABORT));
row('ts-sdk-v1', 'http', '2025-11-25', LATE_RETRY, { drop_stream_resumable: F, never_answers: P, progress_forever: P });
const MAX_BROKEN = { progress_forever: F, progress_then_finish: F };
row('ts-sdk-v1', 'http', '2025-11-25', MAXIMUM, expect25('http', { ...MAX_BROKEN, fails: F }, STDIO_SCENARIOS));
// TypeScript SDK v2: the stream of a cancelled call is resumed (2025-11-25); on 2026-07-28 a call lost with its broken
// stream is never sent again (the caller waits for its timeout); the maximum rejects the caller and tells the server nothing.
row('ts-sdk-v2', 'stdio', '2025-11-25', TIMEOUT, expect25('stdio', {}));
row('ts-sdk-v2', 'http', '2025-11-25', TIMEOUT, expect25('http', {}));
row('ts-sdk-v2', 'http', '2025-11-25', LATE_RETRY, { drop_stream_resumable: F, never_answers: P, progress_forever: P });
// On 2026-07-28 HTTP the server ends a call's stream with its answer: a cancellation after it cannot be sent, nor seen
// (answers_after answers within the timeout, so nothing else decides it either).
const ANSWER_UNSEEN = { answers_after: I, fails: N };
const V2_2026_HTTP = expect25('http', { ...ANSWER_UNSEEN, drop_stream_resumable: F, drop_stream_unresumable: F });
row('ts-sdk-v2', 'http', '2026-07-28', TIMEOUT, V2_2026_HTTP);
// versionNegotiation 'auto': its server/discover probe gets a DiscoverResult offering 2026-07-28, so the client stays
// on that revision (dist/public-CvV4ZHkX.mjs:2059-2068, classifyResult): the same outcomes as pinned.
row('ts-sdk-v2', 'http', 'auto', TIMEOUT, V2_2026_HTTP);
row('ts-sdk-v2', 'http', '2025-11-25', MAXIMUM, expect25('http', MAX_BROKEN, STDIO_SCENARIOS));
// Python SDK: the stream of a cancelled call is resumed (2025-11-25); a stream dropped without event ids fails the call at
// once, the server never told (2025-11-25) and the call never sent again (2026-07-28).
row('python-sdk', 'stdio', '2025-11-25', TIMEOUT, expect25('stdio', {}));
row('python-sdk', 'stdio', '2026-07-28', TIMEOUT, expect25('stdio', {}));
// Its default mode="auto" over stdio: the server/discover probe on the same process, then 2026-07-28.
row('python-sdk', 'stdio', 'auto', TIMEOUT, expect25('stdio', {}));
row('python-sdk', 'http', '2025-11-25', TIMEOUT, expect25('http', { drop_stream_unresumable: F }));
row('python-sdk', 'http', '2025-11-25', LATE_RETRY, { drop_stream_resumable: F, never_answers: P, progress_forever: P });
const PYTHON_2026_HTTP = expect25('http', { ...ANSWER_UNSEEN, drop_stream_resumable: F, drop_stream_unresumable: F });
row('python-sdk', 'http', '2026-07-28', TIMEOUT, PYTHON_2026_HTTP);
// mode="auto" (the library's default): server/discover at 2026-07-28, a DiscoverResult that offers it is adopted
// (mcp/client/_probe.py:52-113, negotiate_auto): the same outcomes as the pinned mode.
row('python-sdk', 'http', 'auto', TIMEOUT, PYTHON_2026_HTTP);

/**
 * tools/list through every library, on each transport, with each version negotiation it offers: the revision it
 * settles on (where the library tells it) and the scenarios it lists. A result the library rejects (a 2026-07-28
 * list without ttlMs or cacheScope) fails here.
 */
interface Listing {
  readonly client: Client;
  readonly transport: 'stdio' | 'http';
  readonly negotiation: Negotiation;
  /** The version the library settled on; null where it does not tell (v1 always initializes at 2025-11-25). */
  readonly settles: Revision | null;
}
const LISTINGS: Listing[] = [
  ...(['stdio', 'http'] as const).map((transport) => ({
    client: 'ts-sdk-v1' as const,
    transport,
    negotiation: 'auto' as const,
    settles: null,
  })),
  ...(['ts-sdk-v2', 'python-sdk'] as const).flatMap((client) =>
    (['stdio', 'http'] as const).flatMap((transport) =>
      (['2025-11-25', '2026-07-28', 'auto'] as const).map((negotiation) => ({
        client,
        transport,
        negotiation,
        // Both libraries' auto mode probes server/discover first and stays on the stateless revision it offers.
        settles: negotiation === 'auto' ? ('2026-07-28' as const) : negotiation,
      })),
    ),
  ),
];

describe('probe-client: tools/list through every official client library, both revisions, as each negotiates', () => {
  for (const one of LISTINGS)
    (one.client === 'python-sdk' && python === undefined ? it.skip : it.concurrent)(
      `${one.client} over ${one.transport}, ${one.negotiation === 'auto' ? 'its own negotiation' : one.negotiation}: settles ${one.settles ?? 'on initialize'}`,
      { timeout: 60_000 },
      async () => {
        const run = await meet(one.transport, [...driverCommand(one.client), '--list-tools', '--protocol', one.negotiation], []);
        const line = run.driverOutput
          .split('\n')
          .filter((text) => text.startsWith('{') && text.includes('listTools'))
          .map((text) => JSON.parse(text) as { listTools: string; tools?: string[]; protocol: string | null; error?: string })[0];
        expect(line, run.stderr).toBeDefined();
        expect({ listTools: line?.listTools, protocol: line?.protocol }, line?.error).toEqual({
          listTools: 'result',
          protocol: one.settles,
        });
        // Every scenario the transport plays, as the server lists them.
        expect(line?.tools).toEqual(scenarioTools(one.transport === 'http' ? 'streamable-http' : 'stdio').map((tool) => tool['name']));
      },
    );
});

const table: string[] = [];
afterAll(() => {
  if (process.env['TRUTH_TABLE'] === '1') console.log(table.sort().join('\n'));
});

describe('probe-client: the official client libraries, scenario by scenario', () => {
  for (const one of ROWS)
    (one.client === 'python-sdk' && python === undefined ? it.skip : it.concurrent)(
      `${one.client} over ${one.transport} (${one.revision}), ${one.setup.name}`,
      { timeout: 120_000 },
      async () => {
        const played = await play(one);
        const seen = Object.fromEntries(played.outcomes.map((outcome) => [outcome.scenario, outcome.status]));
        for (const outcome of played.outcomes)
          table.push(
            `| ${one.client} | ${one.transport} | ${one.revision} | ${one.setup.name} | ${outcome.scenario} | ${outcome.status} | ` +
              `${outcome.summary.replace(/\|/g, '/')} |`,
          );
        if (process.env['TRUTH_TABLE'] === '1') return;
        for (const [scenario, expected] of Object.entries(one.expected))
          expect(
            { scenario, status: seen[scenario] },
            played.outcomes.find((outcome) => outcome.scenario === scenario)?.summary ?? played.stderr,
          ).toEqual({ scenario, status: expected });
      },
    );
});
