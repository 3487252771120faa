import { describe, expect, it } from 'vitest';
import type { LiveFixtureResult } from '../../src/probe/live-fixtures.js';
import { liveFixturesJunit } from '../../src/probe/live-fixtures-junit.js';
import type { CheckResult, ProbeReport } from '../../src/probe/probe-types.js';
import { renderProbeJunit } from '../../src/probe/probe-junit.js';
import { formatJunit } from '../../src/report/junit.js';
import { runCli } from '../helpers/run-cli.js';
import { sampleResult } from '../helpers/sample-result.js';

// The JUnit of each command, pinned byte for byte (junit-golden/): lint and verify as the built binary writes them
// on the bundled examples and a file it cannot use; probe from reports in process (a live server is not needed to
// pin how a report is written). A change here is a change users' CI reporters see.

const UNUSABLE = 'test/report/junit-golden/unusable.txt';

describe('lint --format junit', () => {
  it('on the bundled examples and a file it cannot read', async () => {
    const run = runCli(['lint', 'fixtures/examples', UNUSABLE, '--format', 'junit']);
    expect(run.status).toBe(2);
    await expect(run.stdout).toMatchFileSnapshot('junit-golden/lint-examples.xml');
  });

  it('on a result with every kind of finding (suppressed, unreadable, file-level, characters XML cannot carry)', async () => {
    await expect(formatJunit(sampleResult())).toMatchFileSnapshot('junit-golden/lint-sample.xml');
  });
});

describe('verify --format junit', () => {
  it('on fixtures that pass and fail, and a file it cannot use', async () => {
    const run = runCli([
      'verify',
      'fixtures/examples/flawed/task-ack-as-final.yaml',
      'fixtures/examples/flawed/http-cancel-by-post.yaml',
      'fixtures/examples/inventory.yaml',
      UNUSABLE,
      '--format',
      'junit',
    ]);
    expect(run.status).toBe(2);
    await expect(run.stdout).toMatchFileSnapshot('junit-golden/verify-examples.xml');
  });
});

const check = (entry: Partial<CheckResult>): CheckResult => ({
  id: 'progress',
  title: 'Progress values increase',
  basis: 'b',
  status: 'pass',
  summary: 'every progress value grew',
  details: [],
  transcript: [],
  durationMs: 1234.5,
  ...entry,
});

/** A finished probe with a check and a session judgement of every status, and text that needs escaping. */
const finished: ProbeReport = {
  version: 3,
  target: 'node "server".mjs <stdio> & more',
  transport: 'stdio',
  revision: '2025-11-25',
  startedOk: true,
  plan: { tool: 'slow_job', why: 'named with --operation', mutation: null },
  observations: [],
  checks: [
    check({}),
    check({
      id: 'cancel',
      title: 'Cancellation stops the work',
      status: 'fail',
      summary: "the server answered r1 after it was cancelled: 'late'",
      details: ['r1 answered at 300 ms', 'nothing else\u0007 was sent'],
      fix: 'stop sending anything for a cancelled request',
      durationMs: 3,
    }),
    check({ id: 'cancel-no-fix', status: 'fail', summary: 'failed without a fix', durationMs: 0 }),
    check({ id: 'tasks', status: 'inconclusive', summary: 'no tool runs as a task', durationMs: 0.4 }),
    check({ id: 'sse-headers', status: 'not-observable', summary: 'stdio has no headers', fix: 'n/a', durationMs: 20_000 }),
  ],
  session: {
    messages: 12,
    graceMs: 100,
    judgements: [
      { judge: 'cancel-silence', party: 'server', status: 'pass', summary: '1 case held', rests: { lesson: 'l', says: 's' }, cases: [] },
      {
        judge: 'progress-monotonic',
        party: 'server',
        status: 'fail',
        summary: '2 of 3 cases failed',
        rests: { lesson: 'l', says: 's' },
        cases: [
          { status: 'fail', message: 'progress went from 2 to 1 <back>', lines: [4] },
          { status: 'pass', message: 'held', lines: [5] },
          { status: 'fail', message: 'progress went from 3 to 3', lines: [7] },
        ],
      },
      { judge: 'task-terminal', party: 'server', status: 'inconclusive', summary: 'no task', rests: { lesson: 'l', says: 's' }, cases: [] },
      { judge: 'sse-resume', party: 'server', status: 'not-observable', summary: 'stdio', rests: { lesson: 'l', says: 's' }, cases: [] },
    ],
  },
};

describe('probe --format junit', () => {
  it('a finished probe: every status of check and session judge', async () => {
    await expect(renderProbeJunit(finished)).toMatchFileSnapshot('junit-golden/probe-finished.xml');
  });

  it('a probe that called no long-running tool and has no session', async () => {
    const report: ProbeReport = {
      ...finished,
      plan: { tool: null, why: 'none is long-running', mutation: null },
      checks: [check({ status: 'inconclusive', summary: 'nothing in flight' })],
      session: undefined,
    };
    await expect(renderProbeJunit(report)).toMatchFileSnapshot('junit-golden/probe-no-tool.xml');
  });

  it('a probe that could not start: an error case, no plan, no checks', async () => {
    const report: ProbeReport = {
      version: 3,
      target: 'http://127.0.0.1:1/mcp',
      transport: 'streamable-http',
      revision: 'unknown',
      startedOk: false,
      problem: 'connect ECONNREFUSED 127.0.0.1:1 "refused"',
      observations: [],
      checks: [],
    };
    await expect(renderProbeJunit(report)).toMatchFileSnapshot('junit-golden/probe-not-started.xml');
  });

  it('a probe with nothing at all to report writes an empty suite', async () => {
    const report: ProbeReport = { ...finished, plan: undefined, checks: [], session: undefined };
    await expect(renderProbeJunit(report)).toMatchFileSnapshot('junit-golden/probe-empty.xml');
  });
});

/** A manifest's fixtures judged live, one of each outcome, with text that needs escaping. */
const liveResults: LiveFixtureResult[] = [
  {
    id: 'slow_job/stdio-cancel-before-completion',
    kind: 'http-cancel-before-completion',
    operation: 'slow_job',
    transport: 'stdio',
    status: 'pass',
    summary: 'the work stopped',
    check: 'cancel',
    transcript: [
      { t: 0, direction: '→', text: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}' },
      { t: 120, direction: '←', text: 'a <line> & \u001b[31mred\u001b[0m' },
    ],
  },
  {
    id: 'slow_job/stdio-progress',
    kind: 'idle-timeout-fires-on-silence',
    operation: 'slow_job',
    transport: 'stdio',
    status: 'fail',
    summary: 'progress went from 2 to "1"',
    check: 'progress',
    transcript: [],
  },
  {
    id: 'slow_job/stdio-lost',
    kind: 'lost-response-automatic-retry',
    operation: 'slow_job',
    transport: 'stdio',
    status: 'inconclusive',
    summary: 'the probe does not play it',
    transcript: [],
  },
  {
    id: 'slow_job/stdio-replay',
    kind: 'close-reopen-replay',
    operation: 'slow_job',
    transport: 'stdio',
    status: 'not-observable',
    summary: 'stdio cannot reopen',
    transcript: [],
  },
];

describe('verify --stdio/--url --format junit', () => {
  it('fixtures judged live, one of each outcome', async () => {
    await expect(liveFixturesJunit('manifests/a & b.yaml', liveResults)).toMatchFileSnapshot('junit-golden/verify-live.xml');
  });
});
