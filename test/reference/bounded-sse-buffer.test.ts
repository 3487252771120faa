import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedSseBuffer, type SseEvent } from '../../src/reference/bounded-sse-buffer.js';
import { BufferFullError, InvalidArgumentError } from '../../src/reference/errors.js';

const progress = (token: string | number, value: number): SseEvent => ({ type: 'progress', progressToken: token, progress: value });
const final = (id: number): SseEvent => ({ type: 'final', requestId: id, response: { jsonrpc: '2.0', id, result: {} } });

describe('BoundedSseBuffer', () => {
  it('coalesces progress of the same token as the newest event, and marks refetch', () => {
    const buffer = new BoundedSseBuffer(4);
    expect(buffer.push(progress('a', 1))).toBe('appended');
    expect(buffer.refetchRequired).toBe(false);
    expect(buffer.push(progress('a', 2))).toBe('coalesced');
    expect(buffer.push(progress('b', 1))).toBe('appended');
    expect(buffer.push(progress('a', 3))).toBe('appended');
    expect(buffer.dropped).toBe(1);
    expect(buffer.refetchRequired).toBe(true);
    expect(buffer.drain()).toEqual([progress('a', 2), progress('b', 1), progress('a', 3)]);
  });

  it('evicts the oldest progress at capacity, even from behind a final, and keeps arrival order', () => {
    const buffer = new BoundedSseBuffer(3);
    buffer.push(final(1));
    buffer.push(progress('a', 1));
    buffer.push(progress('b', 1));
    expect(buffer.push(progress('c', 1))).toBe('evicted-oldest-progress');
    expect(buffer.drain()).toEqual([final(1), progress('b', 1), progress('c', 1)]);
    expect(buffer.size).toBe(0);
  });

  it('never drops a final: progress makes room, and a buffer of finals refuses another', () => {
    const buffer = new BoundedSseBuffer(2);
    buffer.push(progress('a', 1));
    buffer.push(final(1));
    expect(buffer.push(final(2))).toBe('evicted-oldest-progress');
    expect(buffer.push(progress('b', 1))).toBe('discarded');
    expect(() => buffer.push(final(3))).toThrow(BufferFullError);
    expect(buffer.drain()).toEqual([final(1), final(2)]);
  });

  it('drain returns a copy and empties the buffer; no coalescing across a drain', () => {
    const buffer = new BoundedSseBuffer(2);
    buffer.push(progress('a', 1));
    const drained = buffer.drain();
    drained.push(final(9));
    expect(buffer.size).toBe(0);
    expect(buffer.push(progress('a', 2))).toBe('appended');
    expect(buffer.drain()).toEqual([progress('a', 2)]);
  });

  it.each([
    ['capacity 1', () => new BoundedSseBuffer(1), 'capacity'],
    ['capacity 2.5', () => new BoundedSseBuffer(2.5), 'capacity'],
    ['capacity NaN', () => new BoundedSseBuffer(Number.NaN), 'capacity'],
    [
      'a boolean token',
      () => new BoundedSseBuffer(2).push({ type: 'progress', progressToken: true as unknown as string, progress: 1 }),
      'event.progressToken',
    ],
    [
      'a NaN progress',
      () => new BoundedSseBuffer(2).push({ type: 'progress', progressToken: 'a', progress: Number.NaN }),
      'event.progress',
    ],
    ['an unknown event', () => new BoundedSseBuffer(2).push({ type: 'log' } as unknown as SseEvent), 'event.type'],
  ])('rejects %s by name', (_, call, argument) => {
    expect(call).toThrow(InvalidArgumentError);
    expect(call).toThrow(expect.objectContaining({ argument }));
  });
});

describe('BoundedSseBuffer properties', () => {
  const event = fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        type: fc.constant('progress' as const),
        progressToken: fc.constantFrom('a', 'b', 'c', 1, 2),
        progress: fc.integer(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('final' as const), requestId: fc.nat(), response: fc.constant(null) }) },
  );
  const operation = fc.oneof(
    { weight: 12, arbitrary: event.map((value) => ({ push: value as SseEvent })) },
    { weight: 1, arbitrary: fc.constant({ drain: true as const }) },
  );

  it('never exceeds capacity, never drops a final, and marks refetch exactly when it dropped or coalesced', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), fc.array(operation, { maxLength: 200 }), (capacity, operations) => {
        const buffer = new BoundedSseBuffer(capacity);
        const acceptedFinals: SseEvent[] = [];
        const drainedFinals: SseEvent[] = [];
        let losses = 0;
        for (const step of operations) {
          if ('drain' in step) {
            const drained = buffer.drain();
            expect(drained.length).toBeLessThanOrEqual(capacity);
            drainedFinals.push(...drained.filter((item) => item.type === 'final'));
            continue;
          }
          let outcome: ReturnType<typeof buffer.push> | undefined;
          try {
            outcome = buffer.push(step.push);
          } catch (error) {
            expect(error).toBeInstanceOf(BufferFullError);
            expect(step.push.type).toBe('final');
            continue;
          }
          if (step.push.type === 'final') acceptedFinals.push(step.push);
          if (outcome !== 'appended') losses++;
          expect(buffer.size).toBeLessThanOrEqual(capacity);
          expect(buffer.dropped).toBe(losses);
          expect(buffer.refetchRequired).toBe(losses > 0);
        }
        drainedFinals.push(...buffer.drain().filter((item) => item.type === 'final'));
        expect(drainedFinals).toEqual(acceptedFinals);
      }),
    );
  });
});
