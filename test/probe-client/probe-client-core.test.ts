import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { judgeSession } from '../../src/judges/judge-session.js';
import { CLIENT_PROFILES } from '../../src/probe-client/client-profiles.js';
import { clientReportLines, exitCodeOfOutcomes } from '../../src/probe-client/client-report.js';
import { handleMessage, scenarioTools } from '../../src/probe-client/scenario-protocol.js';
import { scenarioOutcomes } from '../../src/probe-client/scenario-outcomes.js';
import { progressInterval, SCENARIOS } from '../../src/probe-client/scenarios.js';
import { serveStdio } from '../../src/probe-client/stdio-server.js';
import { SESSION_RULES } from '../../src/judges/session-rules.js';

const OPTIONS = { idleTimeoutMs: 300, maxTimeoutMs: 1200, toleranceMs: 300, graceMs: 100 };

describe('the scenario protocol (pure)', () => {
  it('initialize settles the revision asked for when the server speaks it, else the most deployed; server/discover lists its own', () => {
    const asked = handleMessage({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } }, 'stdio');
    expect(asked).toMatchObject({ kind: 'reply', revision: '2025-11-25', message: { result: { protocolVersion: '2025-11-25' } } });
    const old = handleMessage({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05' } }, 'stdio');
    expect(old).toMatchObject({ revision: '2025-11-25' });
    const discover = handleMessage({ jsonrpc: '2.0', id: 'd', method: 'server/discover' }, 'http');
    expect(discover).toMatchObject({ kind: 'reply', revision: '2026-07-28', message: { result: { supportedVersions: ['2026-07-28'] } } });
  });
  it('a scenario call starts with its token; an unknown tool, an HTTP-only scenario over stdio and an unknown method are errors', () => {
    const call = handleMessage(
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'never_answers', arguments: {}, _meta: { progressToken: 't' } } },
      'stdio',
    );
    expect(call).toMatchObject({ kind: 'call', id: 3, token: 't', scenario: { name: 'never_answers' } });
    expect(handleMessage({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'nope' } }, 'stdio')).toMatchObject({
      message: { error: { code: -32602 } },
    });
    expect(
      handleMessage({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'drop_stream_resumable' } }, 'stdio'),
    ).toMatchObject({
      message: { error: { message: expect.stringMatching(/over Streamable HTTP/) } },
    });
    expect(handleMessage({ jsonrpc: '2.0', id: 6, method: 'resources/list' }, 'stdio')).toMatchObject({
      message: { error: { code: -32601 } },
    });
    expect(handleMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } }, 'stdio')).toEqual({
      kind: 'cancel',
      requestId: 3,
    });
  });
  it('tools/list offers every scenario over HTTP and the ones without a stream to drop over stdio, each described', () => {
    expect(scenarioTools('http').map((tool) => tool['name'])).toEqual(SCENARIOS.map((scenario) => scenario.name));
    expect(scenarioTools('stdio').map((tool) => tool['name'])).not.toContain('drop_stream_resumable');
    for (const tool of scenarioTools('http')) expect(String(tool['description']).length).toBeGreaterThan(60);
    // Every judge a scenario names exists.
    const judges = new Set(SESSION_RULES.map((rule) => rule.id));
    for (const scenario of SCENARIOS) for (const judge of scenario.judges) expect(judges.has(judge), judge).toBe(true);
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
    const lines = clientReportLines(failed, [], 1, 'an idle timeout of 300 ms', 'ts-sdk-v1').join('\n');
    expect(lines).toMatch(/likely cause \(@modelcontextprotocol\/sdk \(TypeScript SDK v1\) Client 1\.32\.2\): an AbortSignal's listener/);
    expect(lines).toMatch(/dist\/esm\/shared\/protocol\.js:737-739/);
    expect(clientReportLines(failed, [], 1, 'x').join('\n')).not.toMatch(/likely cause/);
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
