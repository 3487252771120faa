import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestCoordinator } from '../../src/reference/request-coordinator.js';

type Action =
  | { kind: 'progress'; at: number }
  | { kind: 'complete'; result: number }
  | { kind: 'stdio-cancel' }
  | { kind: 'close-stream' }
  | { kind: 'http-cancel' }
  | { kind: 'timeout'; at: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('progress' as const), at: fc.integer({ min: 0, max: 5000 }) }),
  fc.record({ kind: fc.constant('complete' as const), result: fc.integer() }),
  fc.constant({ kind: 'stdio-cancel' as const }),
  fc.constant({ kind: 'close-stream' as const }),
  fc.constant({ kind: 'http-cancel' as const }),
  fc.record({ kind: fc.constant('timeout' as const), at: fc.integer({ min: 0, max: 5000 }) }),
);

describe('RequestCoordinator properties', () => {
  it('a request reaches exactly one terminal state, and no response follows an accepted cancellation', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('2025-11-25' as const, '2026-07-28' as const),
        fc.constantFrom('stdio' as const, 'streamable-http' as const),
        fc.array(action, { maxLength: 30 }),
        (revision, transport, actions) => {
          const requests = new RequestCoordinator({ specVersion: revision });
          requests.start(1, { operation: 'op', transport, startedAtMs: 0, idleTimeoutMs: 500, maxTimeoutMs: 2000, progressToken: 't' });
          let terminal: 'completed' | 'cancelled' | undefined;
          let firstResponse: unknown;
          let progress = 0;
          let clock = 0;
          for (const step of actions) {
            switch (step.kind) {
              case 'progress':
                clock = Math.max(clock, step.at);
                expect(requests.progress(1, ++progress, { nowMs: clock }) === undefined).toBe(terminal !== undefined);
                break;
              case 'complete': {
                const outcome = requests.complete(1, { value: step.result });
                if (terminal === 'cancelled') expect(outcome).toEqual({ suppressed: true, repeated: false });
                else if (terminal === 'completed') expect(outcome.response).toEqual(firstResponse);
                else {
                  terminal = 'completed';
                  firstResponse = outcome.response;
                  expect(outcome.response).toEqual({ jsonrpc: '2.0', id: 1, result: { value: step.result } });
                }
                break;
              }
              case 'timeout': {
                clock = Math.max(clock, step.at);
                const fired = requests.timeoutSignal(1, { nowMs: clock });
                if (terminal !== undefined) expect(fired).toBeUndefined();
                // The client applies the signal it was given, as a real client would.
                if (fired?.signal.kind === 'close-stream' && requests.closeHttpStream(1).accepted) terminal = 'cancelled';
                if (fired?.signal.kind === 'notification') {
                  const outcome =
                    transport === 'stdio'
                      ? requests.receiveStdioCancellation(fired.signal.message)
                      : requests.receiveHttpCancellation(fired.signal.message);
                  if (outcome.accepted) terminal = 'cancelled';
                }
                break;
              }
              case 'stdio-cancel':
              case 'http-cancel':
              case 'close-stream': {
                const message = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
                const outcome =
                  step.kind === 'stdio-cancel'
                    ? requests.receiveStdioCancellation(message)
                    : step.kind === 'http-cancel'
                      ? requests.receiveHttpCancellation(message)
                      : requests.closeHttpStream(1);
                if (terminal !== undefined) expect(outcome.accepted).toBe(false);
                if (outcome.accepted) terminal = 'cancelled';
                break;
              }
            }
            expect(requests.get(1)?.state).toBe(terminal ?? 'in_progress');
          }
        },
      ),
    );
  });

  it('progress never extends the maximum deadline', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 20_000 }), { maxLength: 40 }),
        (idle, extra, progressTimes) => {
          const max = idle + extra;
          const requests = new RequestCoordinator({ specVersion: '2026-07-28' });
          requests.start('r', {
            operation: 'op',
            transport: 'streamable-http',
            startedAtMs: 0,
            idleTimeoutMs: idle,
            maxTimeoutMs: max,
            progressToken: 'p',
          });
          const before = progressTimes.filter((time) => time < max).sort((a, b) => a - b);
          for (const [index, time] of before.entries()) requests.progress('r', index + 1, { nowMs: time });
          const fired = requests.timeoutSignal('r', { nowMs: max });
          expect(fired?.reason).toBe('maximum timeout');
          expect(fired?.signal).toEqual({ kind: 'close-stream', requestId: 'r' });
        },
      ),
    );
  });
});
