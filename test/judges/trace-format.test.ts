import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { readTrace, traceEndLine, traceHeaderLine, traceMessageLine } from '../../src/judges/trace-format.js';

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

  it('a file that is not a trace says what one is', () => {
    expect(readTrace('')).toMatchObject({ ok: false, problems: [{ line: 1, message: expect.stringMatching(/empty/) }] });
    const manifest = readTrace('{"mcprely":1}\n');
    expect(manifest).toMatchObject({ ok: false, problems: [{ line: 1, message: expect.stringMatching(/not a trace header/) }] });
  });
});
