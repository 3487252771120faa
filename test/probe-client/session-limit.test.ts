import { afterAll, describe, expect, it } from 'vitest';
import { MAX_RUNNING_CALLS, MAX_SESSIONS, ScenarioHttpServer } from '../../src/probe-client/http-server.js';
import { LOOPBACK_ONLY } from '../helpers/loopback-guard.js';

const server = new ScenarioHttpServer({ holdMs: 5000 }, () => undefined, LOOPBACK_ONLY);
afterAll(() => server.close('the test ended'));

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}',
  });

describe('the scenario server past its sessions', () => {
  it(`serves ${MAX_SESSIONS} sessions, refuses the next ones (503, saying what to do) without opening them, and goes on serving the others`, async () => {
    const url = await server.listen({ host: '127.0.0.1', port: 0 });
    const opened: string[] = [];
    for (let index = 0; index < MAX_SESSIONS; index++) {
      const answer = await initialize(url);
      expect(answer.status).toBe(200);
      opened.push(answer.headers.get('mcp-session-id') as string);
      await answer.text();
    }
    for (let index = 0; index < 20; index++) {
      const refused = await initialize(url);
      expect(refused.status).toBe(503);
      expect(await refused.text()).toMatch(/at most 64 sessions a run: end this run \(its report\) and start another/);
    }
    expect(server.sessions).toHaveLength(MAX_SESSIONS);
    const listed = await fetch(url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': opened[0] as string, 'mcp-protocol-version': '2025-11-25' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(listed.status).toBe(200);
    expect(await listed.text()).toMatch(/never_answers/);
  });

  it(`runs ${MAX_RUNNING_CALLS} calls of a session at once (left ones included); the next is refused at once, other sessions served`, async () => {
    const other = new ScenarioHttpServer({ holdMs: 5000 }, () => undefined, LOOPBACK_ONLY);
    const url = await other.listen({ host: '127.0.0.1', port: 0 });
    const open = async () => {
      const answer = await initialize(url);
      await answer.text();
      return { ...HEADERS, 'mcp-session-id': answer.headers.get('mcp-session-id') as string, 'mcp-protocol-version': '2025-11-25' };
    };
    const [greedy, polite] = [await open(), await open()];
    const call = (headers: Record<string, string>, id: number, name: string, signal?: AbortSignal) =>
      fetch(url, {
        method: 'POST',
        headers,
        signal,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name, arguments: { ms: 1 }, _meta: { progressToken: id } },
        }),
      });
    // Calls that never end, each left by the client once its stream opened (on this revision the work goes on).
    for (let id = 1; id <= MAX_RUNNING_CALLS; id++) {
      const leaving = new AbortController();
      const answer = await call(greedy, id, 'progress_forever', leaving.signal);
      expect(answer.headers.get('content-type')).toMatch(/text\/event-stream/);
      leaving.abort();
    }
    const refused = await call(greedy, 100, 'progress_forever');
    expect(await refused.json()).toMatchObject({
      id: 100,
      error: { message: expect.stringMatching(/at most 16 calls of a session at once/) },
    });
    expect(await (await call(polite, 1, 'answers_after')).text()).toMatch(/"id":1,"result"/);
    await other.close('the test ended');
  });
});
