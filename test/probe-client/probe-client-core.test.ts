import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { judgeSession } from '../../src/judges/judge-session.js';
import { CLIENT_PROFILES, parseClientUnderTest } from '../../src/probe-client/client-profiles.js';
import { clientReportLines, exitCodeOfOutcomes } from '../../src/probe-client/client-report.js';
import { handleMessage, scenarioTools } from '../../src/probe-client/scenario-protocol.js';
import { scenarioOutcomes } from '../../src/probe-client/scenario-outcomes.js';
import { dropPlan, progressInterval, SCENARIOS } from '../../src/probe-client/scenarios.js';
import { serveStdio } from '../../src/probe-client/stdio-server.js';
import { SESSION_RULES } from '../../src/judges/session-rules.js';

const OPTIONS = { idleTimeoutMs: 300, maxTimeoutMs: 1200, toleranceMs: 300, graceMs: 100 };
const STDIO = { transport: 'stdio' } as const;
/** A well-formed per-request envelope of the stateless revision. */
const envelope = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
});

describe('the scenario protocol (pure)', () => {
  it('initialize settles the revision asked for when the server speaks it, else the most deployed; server/discover lists its own', () => {
    const asked = handleMessage({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } }, STDIO);
    expect(asked).toMatchObject({ kind: 'reply', revision: '2025-11-25', message: { result: { protocolVersion: '2025-11-25' } } });
    const old = handleMessage({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05' } }, STDIO);
    expect(old).toMatchObject({ revision: '2025-11-25' });
    const discover = handleMessage({ jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: envelope() } }, STDIO);
    expect(discover).toMatchObject({ kind: 'reply', revision: '2026-07-28', message: { result: { supportedVersions: ['2026-07-28'] } } });
  });
  it('a scenario call starts with its token; an unknown tool, an HTTP-only scenario over stdio and an unknown method are errors', () => {
    const call = handleMessage(
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'never_answers', arguments: {}, _meta: { progressToken: 't' } } },
      STDIO,
    );
    expect(call).toMatchObject({ kind: 'call', id: 3, token: 't', scenario: { name: 'never_answers' } });
    expect(handleMessage({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'nope' } }, STDIO)).toMatchObject({
      message: { error: { code: -32602 } },
    });
    expect(handleMessage({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'drop_stream_resumable' } }, STDIO)).toMatchObject({
      message: { error: { message: expect.stringMatching(/over Streamable HTTP/) } },
    });
    expect(handleMessage({ jsonrpc: '2.0', id: 6, method: 'resources/list' }, STDIO)).toMatchObject({
      message: { error: { code: -32601 } },
    });
    expect(handleMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } }, STDIO)).toEqual({
      kind: 'cancel',
      requestId: 3,
    });
  });
  it('tools/list offers every scenario over HTTP and the ones without a stream to drop over stdio, each described', () => {
    expect(scenarioTools('streamable-http').map((tool) => tool['name'])).toEqual(SCENARIOS.map((scenario) => scenario.name));
    expect(scenarioTools('stdio').map((tool) => tool['name'])).not.toContain('drop_stream_resumable');
    for (const tool of scenarioTools('streamable-http')) expect(String(tool['description']).length).toBeGreaterThan(60);
    // Every judge a scenario names exists.
    const judges = new Set(SESSION_RULES.map((rule) => rule.id));
    for (const scenario of SCENARIOS) for (const judge of scenario.judges) expect(judges.has(judge), judge).toBe(true);
  });
  it('tells the eras apart: an envelope, server/discover, a stateless header or session is stateless; initialize alone is not', () => {
    type Arrival = Parameters<typeof handleMessage>[1];
    const list = (params: Record<string, unknown>, arrival: Arrival) =>
      handleMessage({ jsonrpc: '2.0', id: 1, method: 'tools/list', params }, arrival) as {
        kind: string;
        refusal?: string;
        message: { result: Record<string, unknown> & { tools?: unknown[] } };
      };
    const hinted = { kind: 'reply', message: { result: { ttlMs: 0, cacheScope: 'public' } } };
    const refused = (code: number) => ({ kind: 'reply', message: { error: { code } } });
    const statelessHttp = { transport: 'streamable-http', headers: { protocolVersion: '2026-07-28', method: 'tools/list' } } as const;
    // Requests of the revision with a handshake: no caching hints, no envelope needed, never refused.
    expect(list({}, STDIO).message.result.tools).toHaveLength(6);
    expect(list({}, STDIO).message.result).not.toHaveProperty('ttlMs');
    expect(
      list({ _meta: { progressToken: 't' } }, { transport: 'streamable-http', headers: { protocolVersion: '2025-11-25' } }).refusal,
    ).toBeUndefined();
    expect(list({ _meta: envelope({ 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }) }, STDIO).message.result).not.toHaveProperty(
      'ttlMs',
    );
    // Stateless: by its envelope, or by the session (stdio) or the header (HTTP) that names the stateless revision.
    expect(list({ _meta: envelope() }, STDIO)).toMatchObject(hinted);
    expect(list({}, { transport: 'stdio', sessionRevision: '2026-07-28' })).toMatchObject(refused(-32602));
    expect(list({}, statelessHttp)).toMatchObject({ ...refused(-32602), refusal: 'malformed-envelope' });
    expect(list({ _meta: envelope() }, statelessHttp)).toMatchObject(hinted);
    // Over stdio there are no headers to check; over HTTP they are required.
    expect(list({ _meta: envelope() }, { transport: 'streamable-http', headers: {} })).toMatchObject({
      ...refused(-32020),
      refusal: 'header-mismatch',
    });
    const initialize = { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } };
    expect(handleMessage(initialize, { transport: 'stdio', sessionRevision: '2026-07-28' })).toMatchObject({ revision: '2025-11-25' });
    expect(handleMessage({ ...initialize, params: { _meta: envelope() } }, STDIO)).toMatchObject(refused(-32601));
  });
  it("the scenarios' progress keeps a call alive: a third of the idle timeout, within 50 ms to 1 s", () => {
    expect(progressInterval({ idleMs: 600, holdMs: 1 })).toBe(200);
    expect(progressInterval({ idleMs: 60_000, holdMs: 1 })).toBe(1000);
    expect(progressInterval({ idleMs: 30, holdMs: 1 })).toBe(50);
  });
});

/** A stdio session with the scenario server: the client's lines in (what the server wrote goes to `written`), then the transcript judged. */
async function stdioSession(script: (send: (message: object) => void) => Promise<void>, written: Record<string, unknown>[] = []) {
  const input = new PassThrough();
  const output = new PassThrough();
  output.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n')) if (line.trim() !== '') written.push(JSON.parse(line));
  });
  const served = serveStdio(input, output, { idleMs: 300, maxMs: 1200, holdMs: 5000 });
  const send = (message: object) => input.write(`${JSON.stringify(message)}\n`);
  send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
  await script(send);
  input.end();
  await served.ended;
  const verdict = judgeSession(served.session.end('done'), OPTIONS);
  return scenarioOutcomes([{ label: 'stdio', verdict }], OPTIONS);
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('probe-client over stdio (in process)', () => {
  it('a cancellation at the idle timeout passes never_answers; none fails it; an uncalled scenario is inconclusive', async () => {
    const good = await stdioSession(async (send) => {
      send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'never_answers', arguments: {} } });
      await sleep(320);
      send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
      await sleep(150);
    });
    expect(good.find((one) => one.scenario === 'never_answers')).toMatchObject({ status: 'pass', calls: 1 });
    expect(good.find((one) => one.scenario === 'fails')).toMatchObject({ status: 'inconclusive', summary: 'the client never called it' });
    const bad = await stdioSession(async (send) => {
      send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'never_answers', arguments: {} } });
      await sleep(700);
    });
    expect(bad.find((one) => one.scenario === 'never_answers')).toMatchObject({
      status: 'fail',
      summary: expect.stringMatching(/passed its idle timeout \(300 ms\) without a cancellation/),
    });
    expect(exitCodeOfOutcomes(bad, [])).toBe(1);
    expect(exitCodeOfOutcomes(good, [])).toBe(0);
    // The rule audit shares: the idle-timeout judge rests on a SHOULD (a warning), so --fail-severity error lets it pass.
    expect(exitCodeOfOutcomes(bad, [], 'error')).toBe(0);
    expect(clientReportLines({ outcomes: bad, failures: [], sessions: [], measuredAgainst: 'x', failSeverity: 'error' }).at(-1)).toBe(
      '  exit 0: every failure above is below --fail-severity error (client-cancels-on-idle-timeout)',
    );
    // Over stdio the drop scenarios are not applicable (not "never called").
    expect(good.find((one) => one.scenario === 'drop_stream_resumable')).toMatchObject({
      status: 'not-observable',
      notApplicable: expect.stringMatching(/^not applicable over stdio: it drops an HTTP stream/),
    });
  });
  it('a slow_write sent again with its key gets the first outcome, not a second run; the retry judge passes it', async () => {
    const written: Record<string, unknown>[] = [];
    const outcomes = await stdioSession(async (send) => {
      send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow_write', arguments: { idempotencyKey: 'k1' } } });
      await sleep(320);
      send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow_write', arguments: { idempotencyKey: 'k1' } } });
      await sleep(150);
    }, written);
    // The retry is answered at once with the first call's outcome; the cancelled first call is never answered.
    expect(written.filter((message) => message['id'] === 2)).toEqual([
      expect.objectContaining({
        result: { content: [{ type: 'text', text: expect.stringMatching(/was first used by request 1: its outcome stands/) }] },
      }),
    ]);
    expect(written.filter((message) => message['id'] === 1)).toEqual([]);
    const write = outcomes.find((one) => one.scenario === 'slow_write');
    expect(write?.status).toBe('pass');
    expect(write?.cases.map((one) => one.judge)).toContain('client-retry-keeps-key');
  });
});

describe('the report', () => {
  it('names the likely cause from the client profile of a failed judge, with its source line', () => {
    const failed = [
      {
        scenario: 'answers_after',
        status: 'fail' as const,
        summary: 'a cancellation after the answer',
        calls: 1,
        cases: [{ judge: 'client-cancels-only-pending', status: 'fail' as const, message: 'late', session: 's', lines: [3] }],
      },
    ];
    const report = (client?: { profile: string; version?: string }) =>
      clientReportLines({
        outcomes: failed,
        failures: [],
        sessions: [{ label: 't.jsonl', transport: 'http', revision: '2025-11-25', clientInfo: 'my-host 0.3' }],
        measuredAgainst: 'an idle timeout of 300 ms',
        ...(client === undefined ? {} : { client }),
      }).join('\n');
    const lines = report({ profile: 'ts-sdk-v1' });
    expect(lines).toMatch(
      /likely cause \(@modelcontextprotocol\/sdk \(TypeScript SDK v1\) Client, lines of 1\.32\.2\): an AbortSignal's listener/,
    );
    expect(lines).toMatch(/dist\/esm\/shared\/protocol\.js:737-739/);
    expect(lines).toMatch(/^ {2}t\.jsonl: 2025-11-25 over Streamable HTTP; the client named itself my-host 0\.3$/m);
    expect(lines).toMatch(/FAIL \(error\) client-cancels-only-pending: late/);
    expect(report({ profile: 'ts-sdk-v1', version: '1.32.2' })).toMatch(/Client, 1\.32\.2, the version under test\)/);
    expect(report({ profile: 'ts-sdk-v1', version: '1.20.0' })).toMatch(
      /Client, lines of 1\.32\.2; the client under test is 1\.20\.0, where they may differ\)/,
    );
    expect(report()).not.toMatch(/likely cause/);
  });
  it('--client takes a profile and its version, and says which profiles there are otherwise', () => {
    expect(parseClientUnderTest('ts-sdk-v2')).toEqual({ profile: 'ts-sdk-v2' });
    expect(parseClientUnderTest('ts-sdk-v2@2.3.1')).toEqual({ profile: 'ts-sdk-v2', version: '2.3.1' });
    for (const bad of ['ts-sdk-v3', 'ts-sdk-v2@', 'python-sdk@1 2'])
      expect(parseClientUnderTest(bad)).toEqual({ problem: expect.stringMatching(/give one of ts-sdk-v1, ts-sdk-v2, python-sdk/) });
  });
  it('every behaviour of every profile is on docs/client-profiles.md with its source line', () => {
    const page = readFileSync(new URL('../../docs/client-profiles.md', import.meta.url), 'utf8');
    for (const profile of CLIENT_PROFILES)
      for (const behaviour of profile.behaviours) {
        expect(page, behaviour.source).toContain(`\`${behaviour.source}\``);
        expect(page).toContain(`| \`${profile.id}\` | \`${behaviour.judge}\``);
      }
  });
});

describe('the drop scenarios leave room for a client that reconnects as told', () => {
  it.each([undefined, 300, 600, 1000, 2000, 5000, 10_000, 60_000])(
    'idle timeout %s ms: reconnect, then the answer, then the timeout',
    (idleMs) => {
      const plan = dropPlan({ holdMs: 120_000, ...(idleMs === undefined ? {} : { idleMs }) }, true);
      const { finishAtMs, retryMs, answerAfterDropMs, progressEveryMs } = plan as Required<typeof plan>;
      const reconnectAt = finishAtMs + retryMs;
      // Half an interval between the reconnection and the answer, and a sixth of the timeout after it (before any reset by progress).
      expect(answerAfterDropMs - reconnectAt).toBeGreaterThanOrEqual(progressEveryMs / 2 - 1);
      if (idleMs !== undefined) expect(idleMs - answerAfterDropMs).toBeGreaterThanOrEqual(Math.min(idleMs / 6, idleMs - 2500) - 1);
      // Without the retry field a client waits its default 1 s: at a 2 s timeout that reconnection came at the timeout itself.
      if (idleMs === 2000) expect(finishAtMs + 1000).toBeGreaterThanOrEqual(idleMs);
      expect(dropPlan({ holdMs: 1, ...(idleMs === undefined ? {} : { idleMs }) }, false).retryMs).toBeUndefined();
    },
  );
});
