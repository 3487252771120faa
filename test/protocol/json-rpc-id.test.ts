import { describe, expect, it } from 'vitest';
import { describeId, idKey, looseKey } from '../../src/protocol/json-rpc-id.js';

describe('exact JSON-RPC ids', () => {
  it('an id keeps its type: the string "3" and the integer 3 never share a key', () => {
    expect(idKey(3)).not.toBe(idKey('3'));
    expect(looseKey('3')).toBe(idKey(3));
    expect(looseKey(3)).toBe(idKey('3'));
    expect(looseKey('abc')).toBeUndefined();
    expect(describeId('3')).toBe('"3" (a string)');
    expect(describeId(3)).toBe('3 (an integer)');
  });
});
