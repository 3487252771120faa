import { afterAll, describe, expect, it } from 'vitest';
import { check, EVERYTHING, failing, freePort, probe, SERVERS, startHttp, statuses, stopServers } from './probe-harness.js';

afterAll(stopServers);

describe.concurrent('probe: well-behaved servers built with the official SDKs', () => {
  it('SDK 1.x over stdio: every check passes, the key replays and changed arguments are refused', async () => {
    const { status, report } = await probe([
      '--stdio',
      `node ${SERVERS}/sdk-v1-server.mjs stdio`,
      '--manifest',
      `${SERVERS}/well-behaved.yaml`,
      '--allow-mutations',
      '--grace',
      '300',
    ]);
    expect(report.revision).toBe('2025-11-25');
    expect(report.plan).toMatchObject({ tool: 'slow_job', mutation: 'charge' });
    expect(report.plan?.why).toMatch(/the manifest/);
    expect(statuses(report)).toEqual({
      revision: 'pass',
      tools: 'pass',
      progress: 'pass',
      'cancel-before-completion': 'pass',
      'client-timeouts': 'pass',
      'ignored-cancellations': 'pass',
      'sse-headers': 'not-observable',
      'get-405': 'not-observable',
      'idempotent-replay': 'pass',
      // It has no tool that runs as a task.
      tasks: 'inconclusive',
      wire: 'pass',
    });
    expect(status).toBe(0);
    expect(check(report, 'client-timeouts').summary).toMatch(
      new RegExp(
        '^the maximum timeout fired 7\\d\\d ms after the request and the probe cancelled with notifications/cancelled; ' +
          'nothing for request \\d+ in the \\d+ ms after the cancellation; the server still answers$',
      ),
    );
    // Times count from the request, not from the probe's start.
    const answered = /a response (\d+) ms after request \d+/.exec(check(report, 'progress').details.join(' '));
    expect(Number(answered?.[1])).toBeGreaterThanOrEqual(1150);
    expect(Number(answered?.[1])).toBeLessThan(check(report, 'progress').durationMs + 1);
  });

  it('SDK 1.x over Streamable HTTP (2025-11-25): the cancellation is POSTed, SSE headers are right', async () => {
    const server = await startHttp([`${SERVERS}/sdk-v1-server.mjs`, 'http', '0']);
    const { status, report } = await probe([
      '--url',
      `http://127.0.0.1:${server.port}/mcp`,
      '--manifest',
      `${SERVERS}/well-behaved.yaml`,
      '--allow-mutations',
      '--grace',
      '300',
    ]);
    expect(failing(report)).toEqual({});
    expect(statuses(report)).toMatchObject({
      progress: 'pass',
      'cancel-before-completion': 'pass',
      'sse-headers': 'pass',
      'idempotent-replay': 'pass',
    });
    expect(status).toBe(0);
    expect(
      check(report, 'cancel-before-completion').transcript.some((entry) =>
        entry.text.startsWith('POST {"jsonrpc":"2.0","method":"notifications/cancelled"'),
      ),
    ).toBe(true);
    // The session the server opened is ended when the probe is done with it.
    expect(report.observations).toContain('the probe ended its session with DELETE: HTTP 200');
  });

  it('SDK 2.x over Streamable HTTP (2026-07-28, asked with server/discover): closing the stream cancels, which the wire cannot show', async () => {
    const server = await startHttp([`${SERVERS}/sdk-v2-server.mjs`, '0']);
    const { status, report } = await probe([
      '--url',
      `http://127.0.0.1:${server.port}/mcp`,
      '--operation',
      'slow_job',
      '--arguments',
      '{"steps":6,"stepMs":200}',
      '--max-timeout',
      '700',
      '--grace',
      '300',
    ]);
    expect(report.revision).toBe('2026-07-28');
    expect(failing(report)).toEqual({});
    // Once the stream is closed nothing can reach the probe on it: silence proves nothing there.
    expect(statuses(report)).toMatchObject({
      progress: 'pass',
      'cancel-before-completion': 'not-observable',
      'client-timeouts': 'not-observable',
      'get-405': 'pass',
    });
    expect(check(report, 'cancel-before-completion').summary).toMatch(
      /^closing the stream is the cancellation on 2026-07-28 Streamable HTTP, .*whether the work stopped cannot be seen on the wire \(name a status tool/,
    );
    expect(status).toBe(0);
    const cancel = check(report, 'cancel-before-completion');
    expect(cancel.transcript.some((entry) => /^\[closes the response stream of request \d+\]$/.test(entry.text))).toBe(true);
    expect(cancel.transcript.some((entry) => entry.text.includes('notifications/cancelled'))).toBe(false);
  });
});

describe.concurrent('probe: nothing exercised is not a pass', () => {
  it('--operation on a tool that answers at once: nothing could be cancelled, timed out or measured (exit 3, not 0)', async () => {
    const { status, report } = await probe([
      '--stdio',
      `node ${SERVERS}/sdk/v1.mjs correct stdio`,
      '--operation',
      'slow_job',
      '--arguments',
      '{"steps":0}',
      '--grace',
      '200',
    ]);
    expect(statuses(report)).toMatchObject({
      progress: 'inconclusive',
      'cancel-before-completion': 'inconclusive',
      'client-timeouts': 'inconclusive',
    });
    // Answered before the cancellation went out, or (on a loaded machine) just after it: either way nothing was cancelled.
    expect(check(report, 'cancel-before-completion').summary).toMatch(
      /(before a cancellation could be sent:|crossing the cancellation: .*nothing was cancelled;) give it longer work with --arguments$/,
    );
    expect(report.inconclusive).toMatch(/^no request in flight was judged: /);
    expect(status).toBe(3);
  });
});

describe.concurrent('probe: the earlier deliberately broken servers still get the right verdict', () => {
  // Its tool has no annotations: the probe may call it only when told it may.
  const args = ['--operation', 'slow_job', '--allow-mutations', '--max-timeout', '400', '--grace', '300'];
  it.each([
    // Its maximum timeout (400 ms) cancels too, and the server keeps going after that cancellation as well.
    [
      'response-after-cancel',
      {
        'cancel-before-completion': /^the server sent a response \d+ ms after request \d+ after the cancellation$/,
        'client-timeouts': /^the maximum timeout fired \d+ ms after the request .*; the server sent a response/,
      },
    ],
    [
      'progress-after-cancel',
      {
        'cancel-before-completion': /^the server sent progress [2-4] \d+ ms after request \d+.* after the cancellation$/,
        'client-timeouts': /^the maximum timeout fired \d+ ms after the request .*; the server sent progress/,
      },
    ],
    ['non-monotonic-progress', { progress: /^progress 2 follows 3: not strictly increasing$/ }],
    [
      'error-to-cancellation',
      {
        'cancel-before-completion': /^the server answered the cancellation .*an error response with id null/,
        // Its maximum timeout (400 ms) fires first, and that cancellation is answered too: each check owns its own.
        'client-timeouts': /^the maximum timeout fired \d+ ms after the request .*; the server answered the cancellation/,
        'ignored-cancellations': /^a cancellation of a request that already completed: answered with an error response with id null/,
      },
    ],
    ['early-exit', { progress: /^the server process exited \(code 3\)$/ }],
    [
      'garbage',
      { tools: /^tools\/list was not answered: no response within 10000 ms$/, wire: /not JSON-RPC on stdout .*"this is not JSON"$/ },
    ],
    [
      'flood',
      { tools: /^tools\/list was not answered: the server flooded the probe with over 100000 messages$/, wire: /unknown token "x"/ },
    ],
  ])('%s', { timeout: 60_000 }, async (defect, fails) => {
    const { status, report } = await probe(['--stdio', `node ${SERVERS}/broken-server.mjs ${defect}`, ...args]);
    const failed = failing(report);
    expect(Object.keys(failed).sort(), JSON.stringify(failed, null, 1)).toEqual(Object.keys(fails).sort());
    for (const [id, reason] of Object.entries(fails)) expect(failed[id]).toMatch(reason);
    expect(status).toBe(1);
  });

  it('stall: a run that outlasts the probe is inconclusive (the probe limit), never a failure of the server', {
    timeout: 60_000,
  }, async () => {
    const { status, report } = await probe(['--stdio', `node ${SERVERS}/broken-server.mjs stall`, ...args, '--max-time', '7500']);
    expect(failing(report)).toEqual({});
    expect(check(report, 'progress').status).toBe('inconclusive');
    expect(check(report, 'progress').summary).toMatch(/^slow_job had not finished after 3000 ms, the probe's limit for one run/);
    // Quiet for its whole run: the later checks do not wait for it again, and nothing in flight was judged (exit 3).
    expect(report.stall).toMatchObject({ tool: 'slow_job', limitMs: 3000, silentMs: 3000, progress: 0 });
    expect(statuses(report)).toMatchObject({ 'cancel-before-completion': 'inconclusive', 'client-timeouts': 'inconclusive' });
    expect(status).toBe(3);
  });

  it('missing SSE headers over HTTP: sse-headers fails, naming what is absent; cancellation still passes', async () => {
    const server = await startHttp([`${SERVERS}/broken-server.mjs`, 'missing-sse-headers', '0']);
    const { status, report } = await probe(['--url', `http://127.0.0.1:${server.port}/mcp`, ...args]);
    expect(failing(report)).toEqual({ 'sse-headers': 'the SSE response lacks Cache-Control: no-cache, X-Accel-Buffering: no' });
    expect(check(report, 'cancel-before-completion').status).toBe('pass');
    expect(status).toBe(1);
  });
});

/**
 * The published reference server. Its trigger-long-running-operation tool is annotated read-only, so the probe
 * may call it on its own; the tool ignores the abort signal: after a cancellation the SDK suppresses its
 * response, but the tool keeps sending progress until it would have finished (a real defect: the receiver
 * SHOULD stop, and progress must only reference active requests).
 */
describe.concurrent('probe: @modelcontextprotocol/server-everything', () => {
  const args = ['--arguments', '{"duration":1.2,"steps":4}', '--max-timeout', '600', '--grace', '300'];

  it('over stdio: chooses its read-only long tool; it keeps sending progress after a cancellation', { timeout: 60_000 }, async () => {
    const { report, status } = await probe(['--stdio', `node ${EVERYTHING} stdio`, ...args]);
    expect(report.revision).toBe('2025-11-25');
    expect(report.plan?.tool).toBe('trigger-long-running-operation');
    expect(report.plan?.why).toMatch(/read-only by its annotations/);
    expect(Object.keys(failing(report)).sort()).toEqual(['cancel-before-completion', 'client-timeouts']);
    expect(check(report, 'cancel-before-completion').summary).toMatch(/^the server sent progress \d.* after the cancellation$/);
    expect(check(report, 'cancel-before-completion').summary).not.toMatch(/response/);
    expect(check(report, 'client-timeouts').summary).toMatch(
      /^the maximum timeout fired \d+ ms after the request .*; the server sent progress/,
    );
    expect(statuses(report)).toMatchObject({ progress: 'pass', 'ignored-cancellations': 'pass', wire: 'pass' });
    expect(status).toBe(1);
  });

  it('over Streamable HTTP: the same, with the right SSE headers and its priming events not taken for garbage', {
    timeout: 60_000,
  }, async () => {
    const port = await freePort();
    await startHttp([EVERYTHING, 'streamableHttp'], { PORT: String(port) });
    const { report } = await probe(['--url', `http://127.0.0.1:${port}/mcp`, ...args]);
    expect(report.revision).toBe('2025-11-25');
    expect(Object.keys(failing(report)).sort()).toEqual(['cancel-before-completion', 'client-timeouts']);
    expect(statuses(report)).toMatchObject({ progress: 'pass', 'ignored-cancellations': 'pass', 'sse-headers': 'pass', wire: 'pass' });
  });
});
