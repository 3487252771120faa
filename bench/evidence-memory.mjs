// mcprely evidence on manifests of 1 000 and 10 000 operations: the peak memory (resident set) of each run, and
// the ratio of the two. Every file of the bundle goes to disk as it is made, so memory must stay nearly flat
// (targets: ≤ 600 MB at 10 000 operations, ratio ≤ 1.5×).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/mcprely.js');
const work = mkdtempSync(join(tmpdir(), 'mcprely-evidence-memory-'));
const LIMIT_MB = 600;
const LIMIT_RATIO = 1.5;

/** A manifest of `count` operations, each a quick tool call (four fixtures each): 10 000 of them stay under the 2 MiB limit. */
function manifest(count) {
  let text = 'mcprely: 1\nspecVersion: "2026-07-28"\nserver: { name: big, transports: [stdio] }\noperations:\n';
  for (let index = 0; index < count; index++)
    text += `  - { name: op${index}, method: tools/call, sideEffect: none, timeouts: { idleMs: 1000, maxMs: 2000 } }\n`;
  const path = join(work, `ops${count}.yaml`);
  writeFileSync(path, text);
  return path;
}

/** Runs evidence on the manifest in a child whose exit hook records its peak resident set (process.resourceUsage). */
function peakMb(path) {
  const report = join(work, 'peak.txt');
  const hook = join(work, 'peak-hook.cjs');
  writeFileSync(
    hook,
    `process.on('exit',()=>require('node:fs').writeFileSync(${JSON.stringify(report)},String(process.resourceUsage().maxRSS)))\n`,
  );
  const started = performance.now();
  const run = spawnSync(process.execPath, ['--require', hook, cli, 'evidence', path, '-o', join(work, 'out')], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0 && run.status !== 1) throw new Error(`evidence exited ${run.status}: ${run.stderr.slice(0, 400)}`);
  rmSync(join(work, 'out'), { recursive: true, force: true });
  return { mb: Number(readFileSync(report, 'utf8')) / 1024, seconds: (performance.now() - started) / 1000 };
}

const results = [1000, 10_000].map((count) => ({ count, ...peakMb(manifest(count)) }));
rmSync(work, { recursive: true, force: true });
console.log('evidence peak memory (resident set)');
for (const { count, mb, seconds } of results)
  console.log(`  ${String(count).padStart(6)} operations: ${mb.toFixed(0).padStart(5)} MB in ${seconds.toFixed(1)} s`);
const [small, large] = results;
const ratio = large.mb / small.mb;
console.log(`  ratio 10 000 / 1 000: ${ratio.toFixed(2)}× (target ≤ ${LIMIT_RATIO}×); at 10 000: target ≤ ${LIMIT_MB} MB`);
process.exitCode = ratio <= LIMIT_RATIO && large.mb <= LIMIT_MB ? 0 : 1;
