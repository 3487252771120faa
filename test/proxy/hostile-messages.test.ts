import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { judgeSession } from '../../src/judges/judge-session.js';
import { readTrace } from '../../src/judges/trace-format.js';
import { SessionRecorder } from '../../src/recording/session-recorder.js';

const work = mkdtempSync(join(tmpdir(), 'mcprely-hostile-messages-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Arrays nested `depth` deep: JSON.parse reads them, JSON.stringify (and any recursion) overflows the stack. */
const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const TOO_DEEP = 200_000;

/** Messages that parse but cannot be walked by recursion; each is recorded and the next message still gets its own line. */
const HOSTILE: readonly { readonly name: string; readonly text: string }[] = [
  { name: 'arguments', text: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":${deep(TOO_DEEP)}}}}` },
  {
    name: 'arguments laid out on lines',
    text: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":\n${deep(TOO_DEEP)}\n}}`,
  },
  { name: 'an id', text: `{"jsonrpc":"2.0","id":${deep(TOO_DEEP)},"method":"tools/list"}` },
  {
    name: 'a progress token',
    text: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","_meta":{"progressToken":${deep(TOO_DEEP)}}}}`,
  },
  { name: 'an error', text: `{"jsonrpc":"2.0","id":4,"error":${deep(TOO_DEEP)}}` },
  {
    name: 'arguments deep but short (the judges recurse)',
    text: `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"t","arguments":{"a":${deep(7000)}}}}`,
  },
];

describe('the recorder under messages nested past the call stack', () => {
  it.each(HOSTILE)('$name: recorded on one trace line, judged without a throw, the next message on the next line', ({ name, text }) => {
    const path = join(work, `${name.replace(/\W+/g, '-')}.jsonl`);
    const recorder = new SessionRecorder({ transport: 'http', server: 'test' }, path);
    expect(() => recorder.message('client', text, false, 'POST 1')).not.toThrow();
    // The probe-client hands the recorder what it parsed itself.
    expect(() => recorder.parsedMessage('client', JSON.parse(text), 'POST 2')).not.toThrow();
    const next = recorder.message('client', '{"jsonrpc":"2.0","id":"after","method":"ping"}', false, 'POST 3');
    const transcript = recorder.end('done');
    expect(() => judgeSession(transcript, { toleranceMs: 100, graceMs: 100 })).not.toThrow();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    // Header, three messages, end: the line the recorder gave the last message is where it is.
    expect(lines).toHaveLength(5);
    expect(JSON.parse(lines[(next as number) - 1] as string)).toMatchObject({ message: { id: 'after' } });
    const read = readTrace(lines.join('\n'));
    expect(read.ok).toBe(true);
  });
});

describe('the judges under a hostile batch', () => {
  it('50 000 requests lost with one stream the server broke are judged in about a second, not in quadratic time', () => {
    const recorder = new SessionRecorder({ transport: 'http', server: 'test' });
    recorder.stream('client', 'POST 1', { request: { method: 'POST' } });
    recorder.message('client', '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}', false, 'POST 1');
    recorder.message('server', '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}', false, 'POST 1');
    recorder.stream('server', 'POST 1', { closed: true });
    recorder.stream('client', 'POST 2', { request: { method: 'POST', protocolVersion: '2025-11-25' } });
    const batch = Array.from({ length: 50_000 }, (_, index) => ({ jsonrpc: '2.0', id: `b-${index}`, method: 'ping' }));
    recorder.message('client', JSON.stringify(batch), false, 'POST 2');
    recorder.stream('server', 'POST 2', { response: { status: 400, headers: {} } });
    recorder.stream('server', 'POST 2', { closed: true });
    const transcript = recorder.end('done');
    const started = performance.now();
    const verdict = judgeSession(transcript, { toleranceMs: 0, graceMs: 0 });
    // Quadratic, this took about 15 s here (a live proxy or probe-client stalled that long, every pass).
    expect(performance.now() - started).toBeLessThan(2500);
    expect(verdict.judgements.find((one) => one.judge === 'client-recovers-lost-request')?.status).toBe('fail');
  });

  it('a long session of 40 000 answered tool calls is judged in about a second, not in quadratic time', () => {
    const recorder = new SessionRecorder({ transport: 'stdio', server: 'test' });
    for (let id = 0; id < 40_000; id++) {
      recorder.message(
        'client',
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"charge","arguments":{"n":${id % 3}}}}`,
        false,
      );
      recorder.message('server', `{"jsonrpc":"2.0","id":${id},"result":{}}`, false);
    }
    const started = performance.now();
    const verdict = judgeSession(recorder.end('done'), { toleranceMs: 0, graceMs: 0 });
    // Quadratic (every call against every later one), this took about a minute here.
    expect(performance.now() - started).toBeLessThan(2500);
    expect(verdict.judgements.find((one) => one.judge === 'client-retry-keeps-key')?.status).toBe('inconclusive');
  });
});
