import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serveMcpStdio } from '../../src/mcp-server/stdio-transport.js';

/** The stdio transport's bounds, in process: a line past a message's 4 MiB ends the session; a closed output too. */
function served() {
  const [input, output, errors] = [new PassThrough(), new PassThrough(), new PassThrough()];
  let told = '';
  errors.on('data', (chunk: Buffer) => (told += chunk));
  const { ended } = serveMcpStdio(input, output, { workingFolder: '.', version: 'test', errors });
  return { input, output, ended, told: () => told };
}

describe('mcprely mcp over stdio, bounded', () => {
  it('a line that grows past 4 MiB without its end ends the session, told on stderr', async () => {
    const session = served();
    session.input.write('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"');
    for (let sent = 0; sent <= 4 * 1024 * 1024; sent += 1024 * 1024) session.input.write('x'.repeat(1024 * 1024));
    await session.ended;
    expect(session.told()).toMatch(/a message longer than 4194304 bytes: the session ends/);
  });

  it('a client that closes its end of the output ends the session, without a crash', async () => {
    const session = served();
    session.output.destroy(new Error('EPIPE'));
    await session.ended;
    expect(session.input.destroyed).toBe(true);
  });
});
