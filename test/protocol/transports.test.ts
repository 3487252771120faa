import { describe, expect, it } from 'vitest';
import { isTraceTransport, TRACE_TRANSPORT, TRANSPORTS } from '../../src/protocol/transports.js';

describe('transports', () => {
  it('a trace spells Streamable HTTP "http" and stdio "stdio"; nothing else is a trace transport', () => {
    expect(TRANSPORTS.map((transport) => TRACE_TRANSPORT[transport])).toEqual(['stdio', 'http']);
    expect(['stdio', 'http', 'streamable-http', 'sse', undefined].map(isTraceTransport)).toEqual([true, true, false, false, false]);
  });
});
