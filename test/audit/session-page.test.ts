import { describe, expect, it } from 'vitest';
import { SESSION_PAGE_BUDGET, sessionPage } from '../../src/audit/session-page.js';
import { judgeSession } from '../../src/judges/judge-session.js';
import { readTrace } from '../../src/judges/trace-format.js';

const HEADER = { mcprelyTrace: 1, transport: 'http', started: '2026-12-03T10:00:00.000Z', server: 'http://127.0.0.1:3001/mcp' };
const V2026 = '2026-07-28';
const SSE = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

/** A 2026-07-28 session: a call whose stream the client closes at 1 020 ms, whose answer the server writes into the next stream. */
const HELD = [
  HEADER,
  { at: 0, from: 'client', stream: 'POST 1', request: { method: 'POST', protocolVersion: V2026 } },
  {
    at: 0,
    from: 'client',
    stream: 'POST 1',
    message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow <b>job</b>', _meta: { progressToken: 1 } } },
  },
  { at: 2, from: 'server', stream: 'POST 1', response: { status: 200, headers: SSE } },
  { at: 1020, from: 'client', stream: 'POST 1', closed: true },
  { at: 1500, from: 'client', stream: 'POST 2', request: { method: 'POST', protocolVersion: V2026 } },
  { at: 1500, from: 'client', stream: 'POST 2', message: { jsonrpc: '2.0', id: 2, method: 'tools/list' } },
  { at: 1501, from: 'server', stream: 'POST 2', response: { status: 200, headers: SSE } },
  { at: 1502, from: 'server', stream: 'POST 2', message: { jsonrpc: '2.0', id: 1, result: {} } },
  { at: 1503, from: 'server', stream: 'POST 2', message: { jsonrpc: '2.0', id: 2, result: { tools: [] } } },
  { at: 1503, from: 'server', stream: 'POST 2', closed: true },
  { at: 3000, end: 'stopped' },
];

function page(records: readonly object[]) {
  const read = readTrace(records.map((record) => JSON.stringify(record)).join('\n'));
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  const verdict = judgeSession(read.transcript, { toleranceMs: 100, graceMs: 50, idleTimeoutMs: 1000 });
  return sessionPage({ trace: 'held.jsonl', header: read.header, verdict });
}

describe('the page of a recorded session', () => {
  const text = page(HELD);

  it('says the verdict and lists every judge with its status', () => {
    expect(text).toMatch(/<p class="verdict-text" data-verdict>2 judge\(s\) failed<\/p>/);
    expect(text).toContain('<div class="verdict refused">');
    for (const judge of [
      'server-silent-after-cancel',
      'server-messages-on-own-stream',
      'client-cancels-on-idle-timeout',
      'server-sse-headers',
    ])
      expect(text).toContain(`<td><code>${judge}</code></td>`);
    expect(text).toMatch(/<code>client-cancels-on-idle-timeout<\/code><\/td><td>client<\/td><td><span class="mark mark-pass">passed/);
  });

  it('draws, for each failure, the messages that decided it: the call, the close of its stream, the answer written into the next', () => {
    const figures = [...text.matchAll(/<figure data-diagram="(case-\d+)">[\s\S]*?<\/figure>/g)];
    expect(figures.map((one) => one[1])).toEqual(['case-1', 'case-2']);
    const source = /<pre>([\s\S]*?)<\/pre>/.exec(figures[0]?.[0] ?? '')?.[1] ?? '';
    expect(source).toMatch(/C-&gt;&gt;S: 0\u00a0ms \[POST 1\] tools\/call \(id\u00a01\)/);
    expect(source).toMatch(/Note over C: 1020\u00a0ms: closed POST 1/);
    expect(source).toMatch(/S--&gt;&gt;C: 1502\u00a0ms \[POST 2\] response \(id\u00a01\)/);
    expect(source).toMatch(/Note over S: server-silent-after-cancel: the&lt;br\/&gt;server sent its response/);
    expect(figures[0]?.[0]).toContain('<svg class="seq"');
  });

  it('escapes what the session carried, fetches nothing, and gives the same bytes for the same verdict', () => {
    expect(text).not.toContain('<b>job</b>');
    expect(text).not.toMatch(/<script src|<link |https?:\/\/(?!127\.0\.0\.1|www\.w3\.org\/2000\/svg)/);
    expect(page(HELD)).toBe(text);
  });

  it('draws the first messages of a long session and says how many more the trace has', () => {
    const many = [HEADER];
    for (let id = 1; id <= 200; id++)
      many.push(
        { at: id * 10, from: 'client', stream: `POST ${id}`, request: { method: 'POST' } } as never,
        { at: id * 10, from: 'client', stream: `POST ${id}`, message: { jsonrpc: '2.0', id, method: 'ping' } } as never,
        { at: id * 10 + 1, from: 'server', stream: `POST ${id}`, message: { jsonrpc: '2.0', id, result: {} } } as never,
      );
    const long = page(many);
    expect(long).toContain(`The first ${SESSION_PAGE_BUDGET.timeline} of 400 judged message(s)`);
    expect(long).toContain('250 later message(s) are in the trace, not drawn here.');
    expect(long).toContain('<div class="verdict ready">');
  });
});
