// mcprely proxy --url against a direct connection, measured in one run: the latency a request gains through the
// HTTP proxy (p50 and p99 of 2 000 POSTs, one at a time, keep-alive, JSON answers) and the throughput of a 64 MB
// SSE stream, both against a loopback server (its own process) spoken to directly. No target: the figures go in
// the note.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/mcprely.js');
const work = mkdtempSync(join(tmpdir(), 'mcprely-http-proxy-bench-'));

// The upstream: each POST answered as JSON with its id; the method "flood" with a 64 MB SSE stream.
const UPSTREAM = `
const http = require('node:http');
const event = 'data: ' + JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(4000) } }) + '\\n\\n';
const block = event.repeat(64);
http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8').on('data', (c) => (body += c)).on('end', async () => {
    const message = JSON.parse(body);
    if (message.method !== 'flood') {
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    for (let sent = 0; sent < 64 * 1024 * 1024; sent += block.length)
      if (!res.write(block)) await new Promise((r) => res.once('drain', r));
    res.end();
  });
}).listen(0, '127.0.0.1', function () { console.log('listening ' + this.address().port); });
`;

function started(args, pattern) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let text = '';
    const read = (chunk) => {
      text += chunk;
      const found = pattern.exec(text);
      if (found !== null) resolve({ child, found: found[1] });
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', read);
    child.on('close', (code) => reject(new Error(`exited ${code}: ${text}`)));
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function post(url, body, onData) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (res) => {
        res.on('data', onData ?? (() => {}));
        res.on('end', resolve);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function latencies(url) {
  const times = [];
  for (let index = 0; index < 2200; index++) {
    const at = performance.now();
    await post(url, JSON.stringify({ jsonrpc: '2.0', id: index, method: 'ping' }));
    if (index >= 200) times.push(performance.now() - at);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length * 0.5)], p99: times[Math.floor(times.length * 0.99)] };
}

async function throughput(url) {
  let received = 0;
  const at = performance.now();
  await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'flood' }), (chunk) => (received += chunk.length));
  return received / 1024 / 1024 / ((performance.now() - at) / 1000);
}

const upstream = await started(['-e', UPSTREAM], /listening (\d+)/);
const direct = `http://127.0.0.1:${upstream.found}/mcp`;
const proxy = await started([cli, 'proxy', '--url', direct, '--record', join(work, 'trace.jsonl')], /listening on (\S+)/);
const through = proxy.found;
const [directTimes, proxiedTimes] = [await latencies(direct), await latencies(through)];
const [directRate, proxiedRate] = [await throughput(direct), await throughput(through)];
proxy.child.kill('SIGTERM');
upstream.child.kill();
agent.destroy();
rmSync(work, { recursive: true, force: true });
console.log('mcprely proxy --url against a direct connection (loopback Streamable HTTP server)');
const line = (name, proxied, plain) =>
  `  ${name}: ${proxied.toFixed(3)} ms through the proxy, ${plain.toFixed(3)} ms direct ` +
  `(+${(proxied - plain).toFixed(3)} ms, ${(proxied / plain).toFixed(2)}×)`;
console.log(line('POST round trip p50', proxiedTimes.p50, directTimes.p50));
console.log(line('POST round trip p99', proxiedTimes.p99, directTimes.p99));
console.log(
  `  SSE throughput: ${proxiedRate.toFixed(0)} MB/s through the proxy (recording), ${directRate.toFixed(0)} MB/s direct ` +
    `(${(proxiedRate / directRate).toFixed(2)}×)`,
);
