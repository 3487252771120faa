import { spawn } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import { CLI, REPO_ROOT } from '../helpers/run-cli.js';
import { spawnHttpProxy } from './http-proxy-process.js';
import { peakRssHook } from './peak-rss.js';

/**
 * The proxy in front of an echo server (what the client writes comes back): random messages in random chunks, large
 * ones and a flood, come back byte for byte; every line is in the trace; the proxy's memory stays bounded.
 */
export function throughEcho(
  work: string,
  pieces: readonly Buffer[],
  trace: string,
): Promise<{ output: Buffer; maxRssMb: number; code: number | null }> {
  const { hook, peakMb } = peakRssHook(work);
  const echo = 'process.stdin.pipe(process.stdout)';
  const child = spawn(process.execPath, ['--require', hook, CLI, 'proxy', '--record', trace, '--', process.execPath, '-e', echo], {
    cwd: REPO_ROOT,
  });
  const received: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => received.push(chunk));
  child.stderr.resume();
  return new Promise((resolve) => {
    child.on('close', (code) => resolve({ output: Buffer.concat(received), maxRssMb: peakMb(), code }));
    (async () => {
      for (const piece of pieces) if (!child.stdin.write(piece)) await new Promise((drained) => child.stdin.once('drain', drained));
      child.stdin.end();
    })();
  });
}

/** What the upstream answers each POST with: the response's bytes, in the pieces it writes them. */
export interface Answer {
  readonly type: 'text/event-stream' | 'application/json';
  readonly pieces: readonly Buffer[];
}

/** An upstream that keeps each POST body as it arrived and answers with the next scripted answer, piece by piece. */
export function upstream(answers: Answer[]): Promise<{ port: number; bodies: Buffer[]; server: Server }> {
  const bodies: Buffer[] = [];
  const server = createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    bodies.push(Buffer.concat(parts));
    const answer = answers.shift();
    if (answer === undefined) return res.writeHead(500).end();
    res.writeHead(200, { 'content-type': answer.type, 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    for (const piece of answer.pieces) {
      if (!res.write(piece)) await new Promise((drained) => res.once('drain', drained));
      // A turn between pieces, so they leave as separate writes (and often separate TCP segments).
      await new Promise((turn) => setImmediate(turn));
    }
    res.end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as { port: number }).port, bodies, server })),
  );
}

/** `mcprely proxy --url` with its peak memory reported at exit (the hook's files in `work`); resolves once it listens. */
export async function proxyTo(work: string, port: number, trace: string) {
  const { hook, peakMb } = peakRssHook(work);
  const proxy = await spawnHttpProxy(`http://127.0.0.1:${port}/mcp`, ['--record', trace], ['--require', hook]);
  return {
    url: proxy.url,
    async stop() {
      const { code } = await proxy.stop();
      return { code, peakMb: peakMb() };
    },
  };
}

/** POSTs `body` in `pieces` and reads the whole response as bytes. */
export function post(url: string, pieces: readonly Buffer[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => resolve(Buffer.concat(parts)));
      },
    );
    req.on('error', reject);
    (async () => {
      for (const piece of pieces) if (!req.write(piece)) await new Promise((drained) => req.once('drain', drained));
      req.end();
    })();
  });
}
