// mcprely proxy against a direct connection, measured in one run: the latency a message gains through the proxy
// (p50 and p99 of 2 000 round trips, one at a time) and the throughput of a 64 MB stream, both against an echo
// server spoken to directly. No target yet: the figures go in the note.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/mcprely.js');
const work = mkdtempSync(join(tmpdir(), 'mcprely-proxy-bench-'));
const ECHO = ['-e', 'process.stdin.pipe(process.stdout)'];

function start(proxied) {
  const args = proxied ? [cli, 'proxy', '--record', join(work, 'trace.jsonl'), '--', process.execPath, ...ECHO] : ECHO;
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  let waiting;
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    const end = buffer.lastIndexOf('\n');
    if (end !== -1 && waiting !== undefined) {
      const lines = buffer.slice(0, end).split('\n').length;
      buffer = buffer.slice(end + 1);
      waiting(lines);
    }
  });
  return {
    child,
    roundTrip: (line) =>
      new Promise((resolve) => {
        const started = performance.now();
        waiting = () => resolve(performance.now() - started);
        child.stdin.write(`${line}\n`);
      }),
    close: () =>
      new Promise((resolve) => {
        child.on('close', resolve);
        child.stdin.end();
      }),
  };
}

async function latencies(proxied) {
  const peer = start(proxied);
  const times = [];
  for (let index = 0; index < 2200; index++) {
    const ms = await peer.roundTrip(JSON.stringify({ jsonrpc: '2.0', id: index, method: 'ping' }));
    if (index >= 200) times.push(ms);
  }
  await peer.close();
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length * 0.5)], p99: times[Math.floor(times.length * 0.99)] };
}

async function throughput(proxied) {
  const child = spawn(
    process.execPath,
    proxied ? [cli, 'proxy', '--record', join(work, 'flood.jsonl'), '--', process.execPath, ...ECHO] : ECHO,
    {
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
  const line = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(4000) } })}\n`;
  const total = 64 * 1024 * 1024;
  let received = 0;
  const started = performance.now();
  const done = new Promise((resolve) => child.on('close', resolve));
  child.stdout.on('data', (chunk) => (received += chunk.length));
  for (let sent = 0; sent < total; sent += line.length)
    if (!child.stdin.write(line)) await new Promise((resolve) => child.stdin.once('drain', resolve));
  child.stdin.end();
  await done;
  return received / 1024 / 1024 / ((performance.now() - started) / 1000);
}

const direct = await latencies(false);
const proxied = await latencies(true);
const directRate = await throughput(false);
const proxiedRate = await throughput(true);
rmSync(work, { recursive: true, force: true });
console.log('mcprely proxy against a direct connection (echo server over stdio)');
const line = (name, through, direct) =>
  `  ${name}: ${through.toFixed(3)} ms through the proxy, ${direct.toFixed(3)} ms direct ` +
  `(+${(through - direct).toFixed(3)} ms, ${(through / direct).toFixed(2)}×)`;
console.log(line('round trip p50', proxied.p50, direct.p50));
console.log(line('round trip p99', proxied.p99, direct.p99));
console.log(
  `  throughput: ${proxiedRate.toFixed(0)} MB/s through the proxy (recording), ${directRate.toFixed(0)} MB/s direct ` +
    `(${(proxiedRate / directRate).toFixed(2)}×)`,
);
