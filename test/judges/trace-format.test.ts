import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { readTrace, traceEndLine, traceHeaderLine, traceMessageLine, traceStreamLine } from '../../src/judges/trace-format.js';
import { runCli } from '../helpers/run-cli.js';

const validateRecord = new Ajv2020({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync('schemas/trace.schema.json', 'utf8')),
);

const header = traceHeaderLine({ mcprelyTrace: 1, transport: 'stdio', started: '2026-12-02T10:00:00.000Z', server: 'node' });

describe('session traces', () => {
  it('what the recorder writes reads back as the same messages, and every record matches the schema', () => {
    const text =
      header +
      traceMessageLine(1.25, 'client', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}', true) +
      traceMessageLine(2, 'server', '[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"notifications/message"}]', true) +
      traceMessageLine(3, 'server', 'Starting server… (not JSON)', false) +
      traceMessageLine(4, 'client', ' {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}} ', true, 'post-1') +
      traceEndLine(9.5, 'server exited 0');
    for (const line of text.trimEnd().split('\n'))
      expect(validateRecord(JSON.parse(line)), `${line} ${JSON.stringify(validateRecord.errors)}`).toBe(true);
    const read = readTrace(text);
    if (!read.ok) throw new Error(JSON.stringify(read.problems));
    expect(read.transcript.messages.map((one) => [one.line, one.at, one.from, one.stream])).toEqual([
      [2, 1.3, 'client', undefined],
      [3, 2, 'server', undefined],
      [3, 2, 'server', undefined],
      [5, 4, 'client', 'post-1'],
    ]);
    expect(read.transcript.endedAt).toBe(9.5);
  });

  it('every unusable line is reported with its line and column, and the schema refuses what the reader refuses', () => {
    const lines = [
      '{"at":1,"from":"client","message":{}}',
      '{"at":1,"from":"client"',
      '[1]',
      '{"at":-1,"from":"client","message":{}}',
      '{"at":5,"from":"someone","message":{}}',
      '{"at":6,"from":"client"}',
      '{"at":2,"from":"server","message":{}}',
    ];
    const read = readTrace(`${header}${lines.join('\n')}\n`);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problems.map((one) => [one.line, one.column])).toEqual([
      [3, 24],
      [4, 1],
      [5, 1],
      [6, 1],
      [7, 1],
      [8, 1],
    ]);
    expect(read.problems[5]?.message).toMatch(/goes back in time/);
    for (const line of lines.slice(2, 6)) expect(validateRecord(JSON.parse(line)), line).toBe(false);
  });

  it("an HTTP exchange's request, response and end read back as its stream, and match the schema", () => {
    const text =
      traceHeaderLine({ mcprelyTrace: 1, transport: 'http', started: '2026-12-02T10:00:00.000Z' }) +
      traceStreamLine(1, 'client', 'POST 1', { request: { method: 'POST', protocolVersion: '2026-07-28' } }) +
      traceMessageLine(1.5, 'client', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}', true, 'POST 1') +
      traceStreamLine(3, 'server', 'POST 1', { response: { status: 200, headers: { 'content-type': 'text/event-stream' } } }) +
      traceMessageLine(
        4,
        'server',
        '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}',
        true,
        'POST 1',
        'e-7',
      ) +
      traceStreamLine(40, 'client', 'POST 1', { closed: true }) +
      traceStreamLine(41, 'client', 'GET 2', { request: { method: 'GET', lastEventId: 'e-7' } }) +
      traceEndLine(50, 'interrupted (SIGTERM)');
    for (const line of text.trimEnd().split('\n'))
      expect(validateRecord(JSON.parse(line)), `${line} ${JSON.stringify(validateRecord.errors)}`).toBe(true);
    const read = readTrace(text);
    if (!read.ok) throw new Error(JSON.stringify(read.problems));
    expect(read.transcript.messages).toHaveLength(2);
    // The SSE event's id is kept with its message: what a resumption's Last-Event-ID names.
    expect(read.transcript.messages[1]).toMatchObject({ line: 5, stream: 'POST 1', eventId: 'e-7' });
    expect(read.transcript.streams).toEqual([
      {
        id: 'POST 1',
        method: 'POST',
        opened: { line: 2, at: 1 },
        protocolVersion: '2026-07-28',
        response: { line: 4, at: 3, status: 200, headers: { 'content-type': 'text/event-stream' } },
        closed: { line: 6, at: 40, by: 'client' },
      },
      { id: 'GET 2', method: 'GET', opened: { line: 7, at: 41 }, lastEventId: 'e-7' },
    ]);
  });

  it('stream records out of order or of the wrong shape are each reported at their line', () => {
    const lines = [
      '{"at":1,"from":"server","stream":"POST 1","response":{"status":200,"headers":{}}}',
      '{"at":2,"from":"client","stream":"POST 2","request":{"method":"POST"}}',
      '{"at":3,"from":"client","stream":"POST 2","request":{"method":"POST"}}',
      '{"at":4,"from":"client","stream":"POST 2","response":{"status":200,"headers":{}}}',
      '{"at":5,"from":"server","stream":"POST 2","closed":true}',
      '{"at":6,"from":"client","stream":"POST 2","closed":true}',
      '{"at":7,"from":"client","request":{"method":"POST"}}',
      '{"at":8,"from":"server","stream":"POST 2","response":{"status":"200","headers":{}}}',
      '{"at":9,"from":"server","stream":"POST 2","closed":false}',
      '{"at":10,"from":"server","event":"e-1","message":{"jsonrpc":"2.0","id":1,"result":{}}}',
      '{"at":11,"from":"server","stream":"POST 2","event":7,"message":{"jsonrpc":"2.0","id":1,"result":{}}}',
    ];
    const read = readTrace(`${traceHeaderLine({ mcprelyTrace: 1, transport: 'http', started: 'now' })}${lines.join('\n')}\n`);
    if (read.ok) throw new Error('read a broken trace');
    expect(read.problems.map((one) => [one.line, one.message])).toEqual([
      [2, expect.stringMatching(/has no "request" record before/)],
      [4, expect.stringMatching(/was opened before, on line 3/)],
      [5, expect.stringMatching(/response is the server's/)],
      [7, expect.stringMatching(/was closed already, on line 6/)],
      [8, expect.stringMatching(/names its "stream"/)],
      [9, expect.stringMatching(/"status": integer/)],
      [10, expect.stringMatching(/"closed" must be true/)],
      [11, expect.stringMatching(/"event" \(the SSE event id that carried the message\) must be a string, on a record with its "stream"/)],
      [12, expect.stringMatching(/"event" .* must be a string/)],
    ]);
    for (const line of lines.slice(6)) expect(validateRecord(JSON.parse(line)), line).toBe(false);
  });

  it('a file that is not a trace says what one is', () => {
    expect(readTrace('')).toMatchObject({ ok: false, problems: [{ line: 1, message: expect.stringMatching(/empty/) }] });
    const manifest = readTrace('{"mcprely":1}\n');
    expect(manifest).toMatchObject({ ok: false, problems: [{ line: 1, message: expect.stringMatching(/not a trace header/) }] });
  });
});

describe('the exit rule audit shares with probe-client', () => {
  it('a warning failure passes audit at --fail-severity error and says so; --fail-severity warn fails it, as probe-client does', () => {
    const folder = mkdtempSync(join(tmpdir(), 'mcprely-audit-exit-'));
    const trace = join(folder, 'silent.jsonl');
    // A call that outlives a 300 ms idle timeout without a cancellation: client-cancels-on-idle-timeout, a SHOULD (warning).
    writeFileSync(
      trace,
      header +
        traceMessageLine(0, 'client', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}', true) +
        traceEndLine(2000, 'the client exited'),
    );
    const passed = runCli(['audit', trace, '--idle-timeout', '300']);
    expect(passed.status).toBe(0);
    expect(passed.stdout).toMatch(/warning\s+.*passed its idle timeout \(300 ms\) without a cancellation/);
    expect(passed.stderr).toContain('mcprely audit: exit 0: 1 failure below --fail-severity error');
    const failed = runCli(['audit', trace, '--idle-timeout', '300', '--fail-severity', 'warn']);
    expect(failed.status).toBe(1);
    expect(failed.stderr).not.toContain('exit 0');
    rmSync(folder, { recursive: true, force: true });
  });
});
