import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScenarioOutcome } from '../../src/probe-client/scenario-outcomes.js';
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
type Outcome = 'pass' | 'fail' | 'inconclusive' | 'not-observable';

const ALL = [
  'never_answers',
  'answers_after',
  'progress_forever',
  'progress_then_finish',
  'fails',
  'drop_stream_resumable',
  'drop_stream_unresumable',
  'slow_write',
];
const STDIO_SCENARIOS = ALL.filter((name) => !name.startsWith('drop_stream'));

/** What the host claims (the judges' timeouts) and the library's options that make it so. */
interface Setup {
  readonly name: string;
  readonly judge: readonly string[];
  readonly driver: readonly string[];
}
/** A 600 ms timeout, progress asked for, the answered call's abort signal fired later, a timed-out write retried with its key. */
const TIMEOUT: Setup = {
  name: 'timeout 600 ms',
  judge: ['--idle-timeout', '600', '--max-timeout', '1800'],
  driver: ['--timeout', '600', '--progress', '--abort-after-response', '--retry-with-key'],
};
/** The same, with the timeout reset by progress and a maximum of 1.5 s (the libraries that have one). */
const MAXIMUM: Setup = {
  name: 'reset on progress, maximum 1500 ms',
  judge: ['--idle-timeout', '600', '--max-timeout', '1500'],
  driver: ['--timeout', '600', '--reset-on-progress', '--max-total', '1500', '--progress'],
};

interface Row {
  readonly client: Client;
  readonly transport: 'stdio' | 'http';
  readonly revision: Revision;
  readonly setup: Setup;
  /** The outcome of each scenario called, as the library's source has it. */
  readonly expected: Readonly<Record<string, Outcome>>;
}

function driverCommand(client: Client): string[] {
  if (client === 'python-sdk') return [python ?? 'python3', 'test/probe-client/clients/python-sdk.py'];
  return ['node', `test/probe-client/clients/${client}.mjs`];
}

const quote = (word: string) => (/[\s'"]/.test(word) ? `'${word}'` : word);

let runs = 0;
async function play(row: Row): Promise<{ outcomes: ScenarioOutcome[]; stderr: string; status: number | null }> {
  const report = join(folder, `report-${++runs}.json`);
  const scenarios = row.transport === 'http' ? ALL : STDIO_SCENARIOS;
  const driver = [...driverCommand(row.client), ...row.setup.driver, '--protocol', row.revision, '--scenarios', scenarios.join(',')];
  const judging = [...row.setup.judge, '--tolerance', '500', '--report-json', report];
  let run: { status: number | null; stderr: string; stdout: string };
  if (row.transport === 'http') run = await runCliAsync(['probe-client', ...judging, '--run', driver.map(quote).join(' ')]);
  else {
    const { spawn } = await import('node:child_process');
    run = await new Promise((resolve) => {
      const child = spawn(driver[0] as string, [...driver.slice(1), '--stdio', process.execPath, CLI, 'probe-client', '--stdio', ...judging], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('close', (status) => setTimeout(() => resolve({ status, stdout, stderr }), 500));
    });
  }
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as { outcomes: ScenarioOutcome[] };
  return { outcomes: parsed.outcomes.filter((one) => scenarios.includes(one.scenario)), stderr: run.stderr, status: run.status };
}

const P = 'pass';
const F = 'fail';
const I = 'inconclusive';
const ROWS: Row[] = [];
const row = (client: Client, transport: 'stdio' | 'http', revision: Revision, setup: Setup, expected: Record<string, Outcome>) =>
  ROWS.push({ client, transport, revision, setup, expected });

// Filled from the libraries' sources (docs/client-profiles.md) and checked on the wire.
const EXPECTED_V1_TIMEOUT = { never_answers: P, answers_after: F, progress_forever: P, progress_then_finish: P, fails: F, slow_write: P };
row('ts-sdk-v1', 'stdio', '2025-11-25', TIMEOUT, EXPECTED_V1_TIMEOUT);
row('ts-sdk-v1', 'http', '2025-11-25', TIMEOUT, {
  ...EXPECTED_V1_TIMEOUT,
  drop_stream_resumable: F,
  drop_stream_unresumable: P,
});
row('ts-sdk-v1', 'http', '2025-11-25', MAXIMUM, { progress_forever: F });
row('ts-sdk-v2', 'stdio', '2025-11-25', TIMEOUT, {});
row('ts-sdk-v2', 'http', '2025-11-25', TIMEOUT, {});
row('ts-sdk-v2', 'http', '2026-07-28', TIMEOUT, {});
row('ts-sdk-v2', 'http', '2025-11-25', MAXIMUM, {});
row('python-sdk', 'stdio', '2025-11-25', TIMEOUT, {});
row('python-sdk', 'http', '2025-11-25', TIMEOUT, {});
row('python-sdk', 'http', '2026-07-28', TIMEOUT, {});

const table: string[] = [];
afterAll(() => {
  if (process.env['TRUTH_TABLE'] === '1') console.log(table.sort().join('\n'));
});

describe('probe-client: the official client libraries, scenario by scenario', () => {
  for (const one of ROWS)
    it.concurrent.skipIf(one.client === 'python-sdk' && python === undefined)(
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
