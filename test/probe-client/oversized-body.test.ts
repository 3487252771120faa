import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ScenarioHttpServer } from '../../src/probe-client/http-server.js';
import { LOOPBACK_ONLY } from '../helpers/loopback-guard.js';

const server = new ScenarioHttpServer({ holdMs: 5000 }, () => undefined, LOOPBACK_ONLY);
const listening = server.listen({ host: '127.0.0.1', port: 0 });
afterAll(() => server.close('the test ended'));

/** A POST on `agent` (kept alive, one connection); its status and headers, or the error that ended it. */
function post(url: string, agent: Agent, body: string | Buffer) {
  return new Promise<{ status?: number; connection?: string; text?: string; error?: string }>((resolve) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, connection: res.headers.connection, text }));
      },
    );
    req.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
    req.end(body);
  });
}

describe('the scenario server and a body past 4 MiB', () => {
  it('answers 413 and closes the connection; the client’s next request, on its kept-alive agent, is served', async () => {
    const url = await listening;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let round = 0; round < 5; round++) {
      const refused = await post(url, agent, Buffer.alloc(5 * 1024 * 1024, 'x'));
      expect(refused).toMatchObject({ status: 413, connection: 'close', text: 'a message is at most 4 MiB\n' });
      const next = await post(url, agent, '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}');
      expect(next.status, next.error).toBe(200);
    }
    agent.destroy();
  });

  it('a client that sends all of a large body before it reads gets the 413, not a reset, and the connection ends', async () => {
    const url = new URL(await listening);
    const body = Buffer.alloc(8 * 1024 * 1024, 'x');
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const answers = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<string>((resolve) => {
            const opened = performance.now();
            // Written whole and left open: the server closes it once it has answered and read the rest.
            const socket = connect(Number(url.port), '127.0.0.1', () => socket.write(Buffer.concat([Buffer.from(head), body])));
            setTimeout(() => socket.destroy(), 3000);
            let answer = '';
            socket.on('data', (chunk) => (answer += chunk));
            socket.on('error', () => resolve(`${answer} (reset)`));
            socket.on('close', () => resolve(performance.now() - opened < 2000 ? answer : `${answer}\n(still open after 2 s)`));
          }),
      ),
    );
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 413[\s\S]*a message is at most 4 MiB\n(\r\n0\r\n\r\n)?$/);
  });
});
