import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyRetry } from '../../src/reference/classify-retry.js';
import { InvalidArgumentError } from '../../src/reference/errors.js';
import { backoffDelay, JITTERS, KEEP_ALIVE_COMMENT, missingSseHeaders, reconnectPlan, sseHeaders } from '../../src/reference/recovery.js';

describe('recovery helpers', () => {
  it('SSE headers disable proxy buffering; each call is a fresh object', () => {
    const headers = sseHeaders();
    expect(headers).toEqual({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
    headers['X-Accel-Buffering'] = 'yes';
    expect(sseHeaders()['X-Accel-Buffering']).toBe('no');
    expect(KEEP_ALIVE_COMMENT).toBe(':\r\n');
  });

  it('names the SSE headers a response lacks, reading names case-insensitively and lists of values', () => {
    expect(missingSseHeaders(sseHeaders())).toEqual([]);
    expect(
      missingSseHeaders({
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'NO',
      }),
    ).toEqual([]);
    expect(missingSseHeaders({ 'Content-Type': 'application/json', 'X-Accel-Buffering': 'yes' })).toEqual([
      'Content-Type: text/event-stream',
      'Cache-Control: no-cache',
      'X-Accel-Buffering: no',
    ]);
  });

  it('the reconnect plan: new request id, no Last-Event-ID, sorted unique refetch, no replay of an unsafe mutation', () => {
    expect(
      reconnectPlan({
        specVersion: '2026-07-28',
        previousRequestId: 41,
        affected: ['tools/list', 'resources/read ledger://a', 'tools/list'],
        inFlight: 'UNSAFE',
      }),
    ).toEqual({
      newRequestId: '41-retry',
      sendLastEventId: false,
      refetch: ['resources/read ledger://a', 'tools/list'],
      inFlight: 'reconcile-only',
    });
    expect(reconnectPlan({ specVersion: '2025-11-25', previousRequestId: 'x', affected: [], inFlight: 'CONDITIONAL' }).inFlight).toBe(
      'reconcile-then-resend-with-same-key',
    );
    expect(reconnectPlan({ specVersion: '2026-07-28', previousRequestId: 'x', affected: [] }).inFlight).toBe('none');
    expect(() => reconnectPlan({ specVersion: '2026-07-28', previousRequestId: 1.5, affected: [] })).toThrow(
      expect.objectContaining({ argument: 'previousRequestId' }),
    );
    expect(() => reconnectPlan({ specVersion: '2026-07-28', previousRequestId: 1, affected: [''] })).toThrow(
      expect.objectContaining({ argument: 'affected[0]' }),
    );
  });

  it('backoff: the lesson’s ceilings, deterministic per client and attempt', () => {
    expect([0, 1, 2, 5, 6, 30].map((attempt) => backoffDelay('c', attempt).ceilingMs)).toEqual([250, 500, 1000, 8000, 8000, 8000]);
    expect(backoffDelay('client-1', 3)).toEqual(backoffDelay('client-1', 3));
    expect(() => backoffDelay('c', -1)).toThrow(InvalidArgumentError);
    expect(() => backoffDelay('c', 1.5)).toThrow(expect.objectContaining({ argument: 'attempt' }));
    expect(() => backoffDelay('', 1)).toThrow(expect.objectContaining({ argument: 'clientId' }));
  });

  const window = {
    full: (_ceiling: number) => 0,
    equal: (ceiling: number) => Math.max(1, Math.floor(ceiling / 2)),
    none: (ceiling: number) => ceiling,
  } as const;

  it.each(JITTERS)('backoff with %s jitter stays in its window for every client and attempt', (jitter) => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        (client, attempt, baseMs, capMs) => {
          const { ceilingMs, floorMs, delayMs } = backoffDelay(client, attempt, { baseMs, capMs, jitter });
          expect(ceilingMs).toBe(Math.min(capMs, baseMs * 2 ** Math.min(attempt, 60)));
          expect(floorMs).toBe(window[jitter](ceilingMs));
          expect(delayMs).toBeGreaterThanOrEqual(floorMs);
          expect(delayMs).toBeLessThanOrEqual(ceilingMs);
          expect(Number.isInteger(delayMs)).toBe(true);
        },
      ),
    );
  });

  it('the default jitter is the lesson’s: [ceiling/2, ceiling]', () => {
    expect(backoffDelay('c', 4)).toEqual(backoffDelay('c', 4, { jitter: 'equal' }));
    expect(() => backoffDelay('c', 1, { jitter: 'random' as 'full' })).toThrow(expect.objectContaining({ argument: 'jitter' }));
  });

  it.each(['full', 'equal'] as const)('backoff with %s jitter spreads a herd of clients over its window', (jitter) => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 200, maxLength: 200 }),
        fc.integer({ min: 3, max: 20 }),
        (clients, attempt) => {
          const delays = clients.map((client) => backoffDelay(client, attempt, { jitter }).delayMs);
          const { floorMs, ceilingMs } = backoffDelay(clients[0]!, attempt, { jitter });
          // 200 clients over a window of at least 1000 ms: many distinct delays, in both halves of the window.
          expect(new Set(delays).size).toBeGreaterThan(150);
          const middle = (floorMs + ceilingMs) / 2;
          expect(delays.filter((delay) => delay < middle).length).toBeGreaterThan(60);
          expect(delays.filter((delay) => delay >= middle).length).toBeGreaterThan(60);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('backoff without jitter sends the whole herd back at the same instant', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 2, maxLength: 50 }),
        fc.integer({ min: 0, max: 20 }),
        (clients, attempt) => {
          const delays = new Set(clients.map((client) => backoffDelay(client, attempt, { jitter: 'none' }).delayMs));
          expect(delays.size).toBe(1);
        },
      ),
    );
  });
});

describe('classifyRetry', () => {
  it.each([
    [{ sideEffect: 'none' as const }, 'SAFE'],
    [{ sideEffect: 'idempotent' as const }, 'SAFE'],
    [{ sideEffect: 'mutation' as const, idempotencyKeyArgument: 'key' }, 'CONDITIONAL'],
    [{ sideEffect: 'mutation' as const }, 'UNSAFE'],
  ])('%j → %s, with the reason', (operation, classification) => {
    const result = classifyRetry(operation);
    expect(result.classification).toBe(classification);
    expect(result.reason.length).toBeGreaterThan(20);
  });

  it('rejects an unknown side effect by name', () => {
    expect(() => classifyRetry({ sideEffect: 'read' as 'none' })).toThrow(expect.objectContaining({ argument: 'sideEffect' }));
    expect(() => classifyRetry({ sideEffect: 'mutation', idempotencyKeyArgument: '' })).toThrow(
      expect.objectContaining({ argument: 'idempotencyKeyArgument' }),
    );
  });
});
