import { describe, expect, it } from 'vitest';
import { asRecord, isRecord, isRequest, isResponse } from '../../src/protocol/message-guards.js';

describe('message guards', () => {
  it.each([
    [{}, true],
    [{ method: 'ping' }, true],
    [[], false],
    [null, false],
    ['{}', false],
    [3, false],
  ])('isRecord(%j) is %s, and asRecord gives the object or undefined', (value, object) => {
    expect(isRecord(value)).toBe(object);
    expect(asRecord(value)).toBe(object ? value : undefined);
  });

  it.each([
    [{ jsonrpc: '2.0', id: 1, method: 'ping' }, 'request'],
    [{ jsonrpc: '2.0', id: null, method: 'ping' }, 'request'],
    [{ jsonrpc: '2.0', method: 'notifications/progress', params: {} }, 'neither'],
    [{ jsonrpc: '2.0', id: 1, method: 3 }, 'neither'],
    [{ jsonrpc: '2.0', id: 1, result: {} }, 'response'],
    [{ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'no' } }, 'response'],
    [{ jsonrpc: '2.0', id: 1 }, 'neither'],
  ])('%j is a %s', (message, kind) => {
    expect(isRequest(message)).toBe(kind === 'request');
    expect(isResponse(message)).toBe(kind === 'response');
  });
});
