// mcprely proxy --url under concurrent sessions, measured in one run: the latency of a tools/call (job_status, answered
// at once) through the proxy and directly to the same upstream (the SDK v1 test server, its own process), p50 and p99,
// with 1, 10 and 100 sessions calling at once (each its own keep-alive connection, one call at a time), the p99 the
// proxy adds, and the proxy's resident memory (VmRSS after each level, VmHWM at the end). The proxy records a trace and
// judges live, as a user runs it. No target: the figures go in the issue's note.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { procMb, started, WellBehavedSession } from '../scripts/listener-clients.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/mcprely.js');
const work = mkdtempSync(join(tmpdir(), 'mcprely-proxy-load-'));

/** Sessions at once, and the calls each makes (the first 10% are a warm-up, not counted): about 3 000 counted per level. */
const LEVELS = [
  { sessions: 1, calls: 1500 },
  { sessions: 10, calls: 250 },
  { sessions: 100, calls: 35 },
];

const percentile = (sorted, share) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];

/** `sessions` sessions opened on `url`, then each calling `calls` times; the latencies counted, sorted (ms). */
async function latencies(url, sessions, calls, label) {
  const opened = await Promise.all(Array.from({ length: sessions }, (_, index) => new WellBehavedSession(url, `${label}-${index}`).open()));
  const warmUp = Math.ceil(calls / 10);
  const times = [];
  await Promise.all(
    opened.map(async (session) => {
      for (let call = 0; call < calls; call++) {
        const at = performance.now();
        await session.call('job_status');
        if (call >= warmUp) times.push(performance.now() - at);
      }
    }),
  );
  await Promise.all(opened.map((session) => session.close()));
  return times.sort((a, b) => a - b);
}

const upstream = await started([join(root, 'test/probe/servers/sdk/v1.mjs'), 'correct', 'http', '0'], /listening (\d+)/);
const direct = `http://127.0.0.1:${upstream.found}/mcp`;
const proxy = await started([cli, 'proxy', '--url', direct, '--record', join(work, 'trace.jsonl')], /listening on (\S+)/);
const rows = [];
try {
  for (const { sessions, calls } of LEVELS) {
    // Direct first, then through the proxy, then direct again: the two direct runs bracket the proxied one on a busy machine.
    const first = await latencies(direct, sessions, calls, `direct-${sessions}`);
    const proxied = await latencies(proxy.found, sessions, calls, `proxied-${sessions}`);
    const second = await latencies(direct, sessions, calls, `again-${sessions}`);
    const plain = [...first, ...second].sort((a, b) => a - b);
    rows.push({ sessions, count: proxied.length, plain, proxied, rss: procMb(proxy.child.pid, 'VmRSS') });
  }
} finally {
  const peak = procMb(proxy.child.pid, 'VmHWM');
  proxy.child.kill('SIGTERM');
  upstream.child.kill();
  rmSync(work, { recursive: true, force: true });
  console.log('mcprely proxy --url under concurrent sessions: tools/call latency through the proxy and direct (SDK v1 server, loopback)');
  const header = ['sessions', 'calls', 'direct p50', 'direct p99', 'proxy p50', 'proxy p99', 'added p50', 'added p99', 'proxy RSS'];
  const table = rows.map((row) => {
    const [p50, p99, d50, d99] = [
      percentile(row.proxied, 0.5),
      percentile(row.proxied, 0.99),
      percentile(row.plain, 0.5),
      percentile(row.plain, 0.99),
    ];
    const ms = (value) => `${value.toFixed(2)} ms`;
    const added = (value) => `${value >= 0 ? '+' : ''}${value.toFixed(2)} ms`;
    return [
      String(row.sessions),
      String(row.count),
      ms(d50),
      ms(d99),
      ms(p50),
      ms(p99),
      added(p50 - d50),
      added(p99 - d99),
      `${row.rss?.toFixed(0)} MB`,
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...table.map((cells) => cells[column].length)));
  const line = (cells) => `| ${cells.map((cell, column) => cell.padStart(widths[column])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((width) => `${'-'.repeat(width + 1)}:`).join('|')}|`);
  for (const cells of table) console.log(line(cells));
  console.log(`  the proxy's peak resident memory: ${peak?.toFixed(0)} MB (VmHWM); added = proxy minus direct, percentile by percentile`);
}
