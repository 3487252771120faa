import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, ProtocolStateError } from '../../src/reference/errors.js';
import { RequestCoordinator, type StartOptions } from '../../src/reference/request-coordinator.js';

const START: StartOptions = {
  operation: 'reindex',
  transport: 'stdio',
  startedAtMs: 0,
  idleTimeoutMs: 500,
  maxTimeoutMs: 2000,
  progressToken: 'reindex-7',
};

function coordinator(specVersion: '2025-11-25' | '2026-07-28' = '2026-07-28') {
  return new RequestCoordinator({ specVersion });
}

describe('deadlines: two clocks', () => {
  it('the worked example: progress keeps idle quiet, the maximum fires at 2000 even after progress at 1999', () => {
    const requests = coordinator();
    requests.start(1, START);
    for (const [at, value] of [
      [400, 1],
      [800, 2],
      [1200, 3],
    ] as const)
      expect(requests.progress(1, value, { nowMs: at })).toBeDefined();
    expect(requests.timeoutSignal(1, { nowMs: 1500 })).toBeUndefined();
    requests.progress(1, 4, { nowMs: 1999 });
    expect(requests.timeoutSignal(1, { nowMs: 1999 })).toBeUndefined();
    const fired = requests.timeoutSignal(1, { nowMs: 2000 });
    expect(fired?.reason).toBe('maximum timeout');
    expect(fired?.signal).toEqual({
      kind: 'notification',
      message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'maximum timeout' } },
    });
  });

  it('fires the idle timeout after silence, and keep-alive comments are not activity', () => {
    const requests = coordinator();
    requests.start('a', START);
    requests.progress('a', 1, { nowMs: 100 });
    expect(requests.keepAlive('a', { nowMs: 400 })).toBe(':\r\n');
    expect(requests.timeoutSignal('a', { nowMs: 599 })).toBeUndefined();
    expect(requests.timeoutSignal('a', { nowMs: 600 })?.reason).toBe('idle timeout');
  });

  it('the maximum wins the reason when both are due', () => {
    const requests = coordinator();
    requests.start(1, { ...START, idleTimeoutMs: 2000 });
    expect(requests.timeoutSignal(1, { nowMs: 2000 })?.reason).toBe('maximum timeout');
  });
});

describe('progress', () => {
  it('must increase; a request without a token or no longer running sends none', () => {
    const requests = coordinator();
    requests.start(1, START);
    expect(requests.progress(1, 10, { nowMs: 1, total: 100, message: 'ten' })).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'reindex-7', progress: 10, total: 100, message: 'ten' },
    });
    expect(() => requests.progress(1, 10, { nowMs: 2 })).toThrow(ProtocolStateError);
    expect(() => requests.progress(1, 9.5, { nowMs: 2 })).toThrow(/progress must increase/);
    expect(requests.progress(1, 10.5, { nowMs: 3 })).toBeDefined();
    requests.complete(1, { ok: true });
    expect(requests.progress(1, 11, { nowMs: 4 })).toBeUndefined();
    const { progressToken: _token, ...withoutToken } = START;
    requests.start(2, withoutToken);
    expect(requests.progress(2, 1, { nowMs: 1 })).toBeUndefined();
  });
});

describe('cancellation signals per transport and revision', () => {
  it.each([
    ['2026-07-28', 'stdio', 'notification'],
    ['2026-07-28', 'streamable-http', 'close-stream'],
    ['2025-11-25', 'stdio', 'notification'],
    ['2025-11-25', 'streamable-http', 'notification'],
  ] as const)('%s %s → %s', (revision, transport, kind) => {
    const requests = coordinator(revision);
    requests.start(9, { ...START, transport });
    const signal = requests.clientCancelSignal(9, 'user pressed stop');
    expect(signal.kind).toBe(kind);
    if (signal.kind === 'close-stream') expect(signal).toEqual({ kind: 'close-stream', requestId: 9 });
    else expect(signal.message.params).toEqual({ requestId: 9, reason: 'user pressed stop' });
  });

  it('2026 HTTP: closing the stream cancels; a POSTed notification is not the signal', () => {
    const requests = coordinator('2026-07-28');
    requests.start(1, { ...START, transport: 'streamable-http' });
    expect(requests.receiveHttpCancellation({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })).toMatchObject(
      { accepted: false },
    );
    expect(requests.get(1)?.state).toBe('in_progress');
    expect(requests.closeHttpStream(1, 'user closed the tab')).toEqual({ accepted: true });
    expect(requests.get(1)).toMatchObject({ state: 'cancelled', cancelReason: 'user closed the tab' });
  });

  it('2025 HTTP: a disconnect is not a cancellation; the POSTed notification is', () => {
    const requests = coordinator('2025-11-25');
    requests.start(1, { ...START, transport: 'streamable-http' });
    expect(requests.closeHttpStream(1)).toEqual({ accepted: false, ignoredBecause: 'on 2025-11-25 a disconnect is not a cancellation' });
    expect(requests.get(1)?.state).toBe('in_progress');
    expect(
      requests.receiveHttpCancellation({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'stop' } }),
    ).toEqual({ accepted: true });
    expect(requests.get(1)?.state).toBe('cancelled');
  });

  it.each([
    ['not an object', 'cancel'],
    ['another method', { jsonrpc: '2.0', method: 'notifications/progress', params: { requestId: 1 } }],
    ['no params', { jsonrpc: '2.0', method: 'notifications/cancelled' }],
    ['params not an object', { jsonrpc: '2.0', method: 'notifications/cancelled', params: [1] }],
    ['a boolean id', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: true } }],
    ['a float id', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1.5 } }],
    ['an unknown id', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 404 } }],
    ['an HTTP request', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'http' } }],
  ])('ignores a stdio cancellation with %s, and answers nothing', (_, notification) => {
    const requests = coordinator();
    requests.start(1, START);
    requests.start('http', { ...START, transport: 'streamable-http' });
    const outcome = requests.receiveStdioCancellation(notification);
    expect(outcome.accepted).toBe(false);
    expect(Object.keys(outcome).sort()).toEqual(['accepted', 'ignoredBecause']);
    expect(requests.get(1)?.state).toBe('in_progress');
    expect(requests.get('http')?.state).toBe('in_progress');
  });
});

describe('the race: one terminal state', () => {
  it('cancel then complete: cancelled, the response suppressed', () => {
    const requests = coordinator();
    requests.start(1, START);
    expect(
      requests.receiveStdioCancellation({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'stop' } }),
    ).toEqual({ accepted: true });
    expect(requests.complete(1, { done: true })).toEqual({ suppressed: true, repeated: false });
    expect(requests.get(1)).toMatchObject({ state: 'cancelled', cancelReason: 'stop' });
  });

  it('complete then cancel: completed, the response preserved, the late cancellation ignored', () => {
    const requests = coordinator();
    requests.start(1, START);
    const first = requests.complete(1, { done: true });
    expect(first.response).toEqual({ jsonrpc: '2.0', id: 1, result: { done: true } });
    expect(requests.receiveStdioCancellation({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })).toEqual({
      accepted: false,
      ignoredBecause: 'request 1 is already completed',
    });
    const again = requests.complete(1, { done: false, other: 'data' });
    expect(again).toEqual({ response: first.response, suppressed: false, repeated: true });
    (again.response!.result as Record<string, unknown>)['done'] = 'edited';
    expect(requests.complete(1, {}).response).toEqual(first.response);
  });
});

describe('server-sent cancellation', () => {
  it('2026: only for a stdio subscriptions/listen in progress', () => {
    const requests = coordinator('2026-07-28');
    requests.start('listen', { ...START, method: 'subscriptions/listen' });
    expect(requests.serverCancelSubscription('listen')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'listen', reason: 'subscription ended by the server' },
    });
    expect(requests.get('listen')?.state).toBe('cancelled');
    expect(() => requests.serverCancelSubscription('listen')).toThrow(/already cancelled/);
    requests.start('tool', START);
    expect(() => requests.serverCancelSubscription('tool')).toThrow(/only for subscriptions\/listen, not tools\/call/);
    requests.start('http-listen', { ...START, transport: 'streamable-http', method: 'subscriptions/listen' });
    expect(() => requests.serverCancelSubscription('http-listen')).toThrow(/closing its stream/);
  });

  it('2025: there is no subscriptions/listen to end', () => {
    const requests = coordinator('2025-11-25');
    requests.start('listen', { ...START, method: 'subscriptions/listen' });
    expect(() => requests.serverCancelSubscription('listen')).toThrow(/2025-11-25 has no subscriptions\/listen/);
  });
});

describe('bad arguments: a typed error naming the argument', () => {
  /** The coordinator with request 1 started, for calls that need a request to act on. */
  const started = (requests: RequestCoordinator, options = START) => {
    requests.start(1, options);
    return requests;
  };
  const cases: [string, (requests: RequestCoordinator) => unknown, string][] = [
    ['a boolean id', (requests) => requests.start(true as unknown as number, START), 'id'],
    ['a float id', (requests) => requests.start(1.5, START), 'id'],
    ['a null id', (requests) => requests.start(null as unknown as number, START), 'id'],
    ['an object token', (requests) => requests.start(1, { ...START, progressToken: {} as unknown as string }), 'progressToken'],
    ['a NaN start', (requests) => requests.start(1, { ...START, startedAtMs: Number.NaN }), 'startedAtMs'],
    ['a negative start', (requests) => requests.start(1, { ...START, startedAtMs: -1 }), 'startedAtMs'],
    ['an idle timeout of 0', (requests) => requests.start(1, { ...START, idleTimeoutMs: 0 }), 'idleTimeoutMs'],
    ['a maximum below idle', (requests) => requests.start(1, { ...START, maxTimeoutMs: 499 }), 'maxTimeoutMs'],
    ['an unknown transport', (requests) => requests.start(1, { ...START, transport: 'sse' as 'stdio' }), 'transport'],
    ['an empty operation', (requests) => requests.start(1, { ...START, operation: '' }), 'operation'],
    ['a NaN progress', (requests) => started(requests).progress(1, Number.NaN, { nowMs: 1 }), 'value'],
    ['a negative time', (requests) => started(requests).timeoutSignal(1, { nowMs: -5 }), 'nowMs'],
    ['a time before the start', (requests) => started(requests, { ...START, startedAtMs: 100 }).progress(1, 1, { nowMs: 50 }), 'nowMs'],
    ['a result that is not JSON', (requests) => started(requests).complete(1, { when: new Date(0) }), 'result'],
    ['a result with a function', (requests) => started(requests).complete(1, { f: () => 1 }), 'result'],
  ];
  it.each(cases)('%s', (_, call, argument) => {
    const requests = coordinator();
    let thrown: unknown;
    try {
      call(requests);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidArgumentError);
    expect((thrown as InvalidArgumentError).argument).toBe(argument);
  });

  it('rejects a duplicate id still tracked, and an unknown revision', () => {
    const requests = coordinator();
    requests.start(1, START);
    expect(() => requests.start(1, START)).toThrow(ProtocolStateError);
    expect(() => new RequestCoordinator({ specVersion: '2024-11-05' as '2025-11-25' })).toThrow(InvalidArgumentError);
  });
});
