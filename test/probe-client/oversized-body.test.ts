import { Agent, request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { ScenarioHttpServer } from '../../src/probe-client/http-server.js';

const server = new ScenarioHttpServer({ holdMs: 5000 }, () => undefined);
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
    const url = await server.listen({ host: '127.0.0.1', port: 0 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let round = 0; round < 5; round++) {
      const refused = await post(url, agent, Buffer.alloc(5 * 1024 * 1024, 'x'));
      expect(refused).toMatchObject({ status: 413, connection: 'close', text: 'a message is at most 4 MiB\n' });
      const next = await post(url, agent, '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}');
      expect(next.status, next.error).toBe(200);
    }
    agent.destroy();
  });
});
