import { describe, expect, it } from 'vitest';
import { type SseEvent, SseParser } from '../../src/protocol/sse-parser.js';

function parse(chunks: readonly string[], maxEvent = 1024 * 1024, deliverCut = false) {
  const events: SseEvent[] = [];
  const parser = new SseParser((event) => events.push(event), maxEvent, deliverCut);
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return { events, parser };
}

/** A stream cut at every `size` characters. */
function cutEvery(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

const STREAM =
  ': keep-alive\n\nid: 1\ndata: {"a":1}\n\nevent: message\r\ndata: two\r\ndata: lines\r\n\r\nid: 2\rdata: cr only\r\r' +
  'data:no space\n\ndata\n\n';
const EXPECTED: SseEvent[] = [
  { data: '{"a":1}', id: '1' },
  { data: 'two\nlines', id: '1', event: 'message' },
  { data: 'cr only', id: '2' },
  { data: 'no space', id: '2' },
  { data: '', id: '2' },
];

describe('SseParser', () => {
  it.each([1, 2, 3, 7, 1000])('the same events however the stream is cut (every %i characters), every line ending', (size) => {
    const { events, parser } = parse(cutEvery(STREAM, size));
    expect(events).toEqual(EXPECTED);
    expect(parser.comments).toBe(1);
    expect(parser.oversized).toBe(0);
  });

  it('an event over the bound is counted once and dropped; the next event comes whole', () => {
    const big = `data: ${'x'.repeat(60)}\ndata: ${'y'.repeat(60)}\n\ndata: after\n\n`;
    const { events, parser } = parse(cutEvery(big, 9), 100);
    expect(events).toEqual([{ data: 'after' }]);
    expect(parser.oversized).toBe(1);
  });

  it('a recorder (deliverCut) gets the first characters of an over-long event, marked cut, then the next whole', () => {
    const big = `data: ${'x'.repeat(60)}\ndata: ${'y'.repeat(60)}\n\ndata: after\n\n`;
    const { events, parser } = parse(cutEvery(big, 9), 100, true);
    expect(events).toEqual([{ data: `${'x'.repeat(60)}\n${'y'.repeat(39)}`, cut: true }, { data: 'after' }]);
    expect(events[0]?.data).toHaveLength(100);
    expect(parser.oversized).toBe(1);
  });

  it('one line longer than the bound, arriving over many chunks, is cut once and the rest of it skipped', () => {
    const chunks = ['data: ', ...Array.from({ length: 50 }, () => 'z'.repeat(40)), '\n\n', 'data: next\n\n'];
    const dropped = parse(chunks, 100);
    expect(dropped.events).toEqual([{ data: 'next' }]);
    expect(dropped.parser.oversized).toBe(1);
    const kept = parse(chunks, 100, true);
    expect(kept.events[0]).toMatchObject({ cut: true });
    expect(kept.events[0]?.data.length).toBeLessThanOrEqual(100);
    expect(kept.events[0]?.data).toMatch(/^z+$/);
    expect(kept.events[1]).toEqual({ data: 'next' });
  });

  it('empty data lines count against the bound (each adds its line break): an event of many is cut, not grown', () => {
    const { events, parser } = parse([`data: ${'a'.repeat(10)}\n${'data:\n'.repeat(1000)}\n`], 10, true);
    expect(events).toEqual([{ data: 'a'.repeat(10), cut: true }]);
    expect(parser.oversized).toBe(1);
  });

  it.each([
    ['CR', '\r'],
    ['CRLF split between its two halves', '\r\n'],
  ])('an over-long line ended by %s at a chunk boundary: the blank line after it still ends the event, the next comes whole', (_, end) => {
    const long = `data: ${'x'.repeat(300)}`;
    // The over-long line and its CR in one chunk; the rest (LF of a CRLF, the blank line, the next event) after.
    const chunks = [`${long}\r`, `${end === '\r\n' ? '\n' : ''}${end}data: next${end}${end}`];
    const { events, parser } = parse(chunks, 100, true);
    expect(events.map((one) => [one.data.length, one.cut === true])).toEqual([
      [100, true],
      [4, false],
    ]);
    expect(events[1]?.data).toBe('next');
    expect(parser.oversized).toBe(1);
  });

  it('an over-long comment or id line is skipped and counted; the data of its event stays whole', () => {
    const chunks = ['data: kept\n', `: ${'k'.repeat(150)}`, `${'k'.repeat(150)}\n`, '\n'];
    const { events, parser } = parse(chunks, 100, true);
    expect(events).toEqual([{ data: 'kept' }]);
    expect(parser.oversized).toBe(1);
    expect(parser.comments).toBe(0);
  });
});
