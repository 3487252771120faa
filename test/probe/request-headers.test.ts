import { describe, expect, it } from 'vitest';
import {
  type AddedHeader,
  httpEndpoint,
  parseAddedHeader,
  redactedDeep,
  redactSecrets,
  secretsOf,
  shownEndpoint,
  shownUrlText,
  withAddedHeader,
} from '../../src/probe/request-headers.js';

describe('--header: "Name: value", the value never in a message', () => {
  it.each([
    ['Authorization: Bearer abc.def', { name: 'Authorization', value: 'Bearer abc.def' }],
    ['X-Api-Key:k-1', { name: 'X-Api-Key', value: 'k-1' }],
    ['Cookie:  a=1; b=2:3  ', { name: 'Cookie', value: 'a=1; b=2:3' }],
    ['X-Empty:', { name: 'X-Empty', value: '' }],
  ])('%j is sent', (text, header) => expect(parseAddedHeader(text, 1)).toEqual(header));

  it.each([
    ['s3cr3t-without-colon', /^--header \(the 3rd\) has no colon/],
    [': s3cr3t', /^--header \(the 3rd\) has no name before its colon/],
    ['Bearer s3cr3t: x', /^--header \(the 3rd\): the name before the colon is not a header name/],
    ['X-Key: s3cr3t\r\nX-Other: 1', /^--header X-Key: its value holds a character no header can carry/],
    ['X-Key: s3cr3t ✓', /^--header X-Key: its value holds a character no header can carry/],
    ['host: s3cr3t', /^--header host: the Host header is the endpoint's own/],
    ['Transfer-Encoding: s3cr3t', /^--header Transfer-Encoding: a hop-by-hop header/],
    ['Proxy-Authorization: s3cr3t', /^--header Proxy-Authorization: a hop-by-hop header/],
    ['MCP-Protocol-Version: s3cr3t', /^--header MCP-Protocol-Version: mcprely sets this header/],
    ['content-length: s3cr3t', /^--header content-length: mcprely sets this header/],
  ])('%j is refused', (text, message) => {
    const problem = parseAddedHeader(text, 3);
    expect(problem).toMatch(message);
    expect(problem).not.toMatch(/s3cr3t/);
  });

  it('a name given twice (in any case) is refused; others add up in order', () => {
    const first = withAddedHeader([], 'X-Key: 1') as readonly AddedHeader[];
    expect(withAddedHeader(first, 'Authorization: secret')).toEqual([
      { name: 'X-Key', value: '1' },
      { name: 'Authorization', value: 'secret' },
    ]);
    expect(withAddedHeader(first, 'x-key: secret')).toBe('--header x-key is given twice: give each header once');
  });
});

describe('an endpoint with credentials in its URL', () => {
  it('calls the URL without them, as Basic authorization unless an Authorization header is given', () => {
    const endpoint = httpEndpoint(new URL('http://al%20ice:p%40ss@127.0.0.1:3001/mcp?token=t'), [{ name: 'X-Key', value: 'k' }]);
    expect(endpoint.url.href).toBe('http://127.0.0.1:3001/mcp?token=t');
    expect(endpoint.headers).toEqual([
      { name: 'X-Key', value: 'k' },
      { name: 'Authorization', value: `Basic ${Buffer.from('al ice:p@ss').toString('base64')}` },
    ]);
    const given = [{ name: 'authorization', value: 'Bearer b' }];
    expect(httpEndpoint(new URL('http://u:p@h/mcp'), given)).toEqual({ url: new URL('http://h/mcp'), headers: given });
    const plain = new URL('https://h/mcp');
    expect(httpEndpoint(plain, []).url).toBe(plain);
  });

  it('is shown by origin and path; a URL text in a message, with its userinfo and query redacted', () => {
    expect(shownEndpoint(new URL('https://u:p@h:8443/a/mcp?token=t#x'))).toBe('https://h:8443/a/mcp');
    expect(shownUrlText('http://u:p@w@h:99999/mcp?token=t#f')).toBe('http://[redacted]@h:99999/mcp?[redacted]');
    expect(shownUrlText('http://h/mcp#access_token=t')).toBe('http://h/mcp');
    expect(shownUrlText('ftp://h/x')).toBe('ftp://h/x');
  });
});

describe('what a server echoes of the secrets it was sent', () => {
  const endpoint = httpEndpoint(new URL('http://user:pass-word-1@h/mcp?token=query-token-1&page=2&account=12345678'), [
    { name: 'X-Api-Key', value: 'api-key-value-1' },
    { name: 'Cookie', value: 'sid=cookie-value-1; theme=dark' },
    { name: 'X-Debug', value: '1' },
  ]);
  const secrets = secretsOf(endpoint);

  it('is each value, the credentials after a scheme, each cookie and query value; not a short one, nor a number', () => {
    expect([...secrets].sort()).toEqual(
      [
        'api-key-value-1',
        'sid=cookie-value-1; theme=dark',
        'cookie-value-1',
        `Basic ${Buffer.from('user:pass-word-1').toString('base64')}`,
        Buffer.from('user:pass-word-1').toString('base64'),
        'user:pass-word-1',
        'pass-word-1',
        'query-token-1',
      ].sort(),
    );
  });

  it('is replaced by [redacted] in text, in JSON text and in every string of a report', () => {
    expect(redactSecrets('got api-key-value-1 and token=query-token-1, page=2', secrets)).toBe(
      'got [redacted] and token=[redacted], page=2',
    );
    const quoted = [{ name: 'Authorization', value: 'Bearer a"b\\c-secret' }];
    expect(redactSecrets(JSON.stringify({ got: 'Bearer a"b\\c-secret' }), secretsOf({ url: new URL('http://h/'), headers: quoted }))).toBe(
      '{"got":"[redacted]"}',
    );
    const report = { target: 'http://h/mcp', checks: [{ summary: 'HTTP 401: bad key api-key-value-1', durationMs: 12 }], ok: true };
    expect(redactedDeep(report, secrets)).toEqual({ ...report, checks: [{ summary: 'HTTP 401: bad key [redacted]', durationMs: 12 }] });
    expect(redactedDeep(report, [])).toBe(report);
  });
});
