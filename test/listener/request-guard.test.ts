import { describe, expect, it } from 'vitest';
import {
  parseAllowedHost,
  parseAllowedOrigin,
  RefusalLog,
  refusalBody,
  refusalOf,
  requestGuard,
} from '../../src/listener/request-guard.js';

/** [listen host, --allow-host, --allow-origin, Host, Origin, refused header or undefined]. */
type Row = readonly [string, readonly string[], readonly string[], string | undefined, string | undefined, 'Host' | 'Origin' | undefined];

const ROWS: readonly Row[] = [
  // Loopback names, any port, no Origin (not a browser): answered.
  ['127.0.0.1', [], [], '127.0.0.1:18931', undefined, undefined],
  ['127.0.0.1', [], [], 'localhost:18931', undefined, undefined],
  ['127.0.0.1', [], [], 'LOCALHOST', undefined, undefined],
  ['127.0.0.1', [], [], '[::1]:18931', undefined, undefined],
  ['::1', [], [], '[::1]:18931', undefined, undefined],
  // DNS rebinding: a foreign name, with or without its page's Origin.
  ['127.0.0.1', [], [], 'evil.example:18931', undefined, 'Host'],
  ['127.0.0.1', [], [], 'evil.example:18931', 'http://evil.example:18931', 'Host'],
  ['127.0.0.1', [], [], '127.0.0.1.evil.example', undefined, 'Host'],
  ['127.0.0.1', [], [], 'localhost.evil.example:18931', undefined, 'Host'],
  ['127.0.0.1', [], [], undefined, undefined, 'Host'],
  ['127.0.0.1', [], [], '', undefined, 'Host'],
  ['127.0.0.1', [], [], 'user@127.0.0.1', undefined, 'Host'],
  ['127.0.0.1', [], [], '127.0.0.1:99999', undefined, 'Host'],
  // A loopback Host from a page of another origin (the rebinding page's fetch with a loopback URL).
  ['127.0.0.1', [], [], '127.0.0.1:18931', 'http://evil.example', 'Origin'],
  ['127.0.0.1', [], [], '127.0.0.1:18931', 'null', 'Origin'],
  ['127.0.0.1', [], [], '127.0.0.1:18931', 'not an origin', 'Origin'],
  ['127.0.0.1', [], [], '127.0.0.1:18931', 'http://localhost:5173', undefined],
  ['127.0.0.1', [], [], '127.0.0.1:18931', 'http://127.0.0.1:18931', undefined],
  // The listening address is a name of the listener; a wildcard is no page's host.
  ['192.168.1.5', [], [], '192.168.1.5:18931', 'http://192.168.1.5:18931', undefined],
  ['192.168.1.5', [], [], '192.168.1.6:18931', undefined, 'Host'],
  ['0.0.0.0', [], [], '0.0.0.0:18931', 'http://0.0.0.0:18931', 'Origin'],
  ['0.0.0.0', [], [], 'mcp.lan:18931', undefined, 'Host'],
  // Widened by the user.
  ['0.0.0.0', ['mcp.lan'], [], 'mcp.lan:18931', undefined, undefined],
  ['0.0.0.0', ['mcp.lan'], [], 'MCP.LAN:18931', undefined, undefined],
  ['0.0.0.0', ['mcp.lan'], [], 'mcp.lan:18931', 'http://mcp.lan:18931', 'Origin'],
  ['0.0.0.0', ['mcp.lan'], ['http://mcp.lan:18931'], 'mcp.lan:18931', 'http://mcp.lan:18931', undefined],
  ['127.0.0.1', [], ['https://app.example.test'], '127.0.0.1', 'https://app.example.test', undefined],
  ['127.0.0.1', [], ['https://app.example.test'], '127.0.0.1', 'http://app.example.test', 'Origin'],
  ['127.0.0.1', ['*'], [], 'anything.example', undefined, undefined],
  ['127.0.0.1', [], ['*'], '127.0.0.1', 'https://anything.example', undefined],
  ['127.0.0.1', ['*'], [], 'anything.example', 'https://anything.example', 'Origin'],
];

describe('the request guard: Host and Origin of a listener on the user machine', () => {
  it.each(ROWS)(
    'listening on %s, --allow-host %j, --allow-origin %j: Host %s, Origin %s → refused by %s',
    (listen, hosts, origins, host, origin, refusedBy) => {
      const guard = requestGuard(
        listen,
        hosts.map((one) => parseAllowedHost(one) as string),
        origins.map((one) => parseAllowedOrigin(one) as string),
      );
      expect(refusalOf(guard, host, origin)?.header).toBe(refusedBy);
    },
  );

  it('a refusal is a JSON-RPC error with id null that says what to allow', () => {
    const refusal = refusalOf(requestGuard('127.0.0.1'), 'evil.example:18931', undefined);
    expect(refusal?.message).toMatch(/--allow-host evil\.example\b/);
    const body = JSON.parse(refusalBody(refusal as NonNullable<typeof refusal>));
    expect(body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringMatching(/^Forbidden: Host evil/) } });
    const origin = refusalOf(requestGuard('127.0.0.1'), '127.0.0.1', 'http://evil.example');
    expect(origin?.message).toMatch(/--allow-origin/);
  });

  it.each([
    ['mcp.example.test', 'mcp.example.test'],
    ['MCP.example.test:8080', 'mcp.example.test'],
    ['[::1]', '[::1]'],
    ['*', '*'],
  ])('--allow-host %s is %s', (given, parsed) => {
    expect(parseAllowedHost(given)).toBe(parsed);
  });

  it.each(['', 'http://mcp.example.test', 'a b', 'user@host'])('--allow-host %j is refused with what to give', (given) => {
    expect(parseAllowedHost(given)).toEqual({ problem: expect.stringMatching(/give a host name/) });
  });

  it.each([
    ['https://app.example.test', 'https://app.example.test'],
    ['http://localhost:5173/', 'http://localhost:5173'],
    ['*', '*'],
  ])('--allow-origin %s is %s', (given, parsed) => {
    expect(parseAllowedOrigin(given)).toBe(parsed);
  });

  it.each(['app.example.test', 'https://app.example.test/path', 'null', 'file:///tmp/x'])('--allow-origin %j is refused', (given) => {
    expect(parseAllowedOrigin(given)).toEqual({ problem: expect.stringMatching(/give an origin/) });
  });

  it('a flood of refusals is told ten times, then once that the rest are not', () => {
    const lines: string[] = [];
    const log = new RefusalLog((line) => lines.push(line));
    const refusal = refusalOf(requestGuard('127.0.0.1'), 'evil.example', undefined);
    for (let i = 0; i < 1000; i++) log.refused(refusal as NonNullable<typeof refusal>, (one) => one.message);
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toMatch(/not told one by one/);
    expect(log.untold).toBe(990);
  });
});
