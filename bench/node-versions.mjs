// Start-up on this machine's Node and on Node 24 (installed from the npm registry, scripts/node-releases.mjs), the
// same dist/ on both, every figure a ratio to a floor measured on the same runtime in the same run:
// - cold start: `mcprely lint fixtures/examples/billing.yaml` (the complete example) against `node -e 0`
//   (target on Node 24: ≤ 2.5×);
// - the cached re-run: `mcprely lint --cache` on the unchanged 100-file corpus (bench/generate-corpus.mjs), every
//   measured run a second run, against `mcprely --version` (target: ≤ 1.3×).
// Each child gets a TMPDIR of its own, so Node's compile cache (os.tmpdir()/node-compile-cache, Node 22.1+) starts
// empty and is warmed by the first run, as a user's is; the rows "compile cache off" set NODE_DISABLE_COMPILE_CACHE=1.
//
//   node bench/node-versions.mjs [--cli path/to/mcprely.js]     (ROUNDS=20 by default)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installRuntime } from '../scripts/node-releases.mjs';
import { generateCorpus } from './generate-corpus.mjs';
import { median } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const rounds = Number(process.env.ROUNDS ?? 20);
const cliAt = process.argv.indexOf('--cli');
const cli = cliAt === -1 ? 'dist/mcprely.js' : relative(root, process.argv[cliAt + 1]);
const corpus = relative(root, fileURLToPath(new URL('corpus', import.meta.url)));
generateCorpus(join(root, corpus), 100, 100);
const scratch = mkdtempSync(join(tmpdir(), 'mcprely-node-versions-'));

const node24 = await installRuntime('24', () => {});
const runtimes = [
  { name: `Node ${process.version.slice(1)} (this machine)`, exe: process.execPath },
  { name: `Node ${node24.version} (npm registry)`, exe: node24.exe, targets: true },
];

function run(exe, args, env) {
  const start = process.hrtime.bigint();
  const result = spawnSync(exe, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${exe} ${args.join(' ')} exited ${result.status}: ${result.stderr.slice(0, 500)}`);
  return ms;
}

let ok = true;
for (const runtime of runtimes) {
  const cacheFile = (label) => join(scratch, `${runtime.exe.length}-${label}.json`.replace(/[^\w.-]/g, '_'));
  const variants = [
    { label: 'compile cache on (default)', env: { ...process.env, TMPDIR: mkdtempSync(join(scratch, 'tmp-')) } },
    { label: 'compile cache off', env: { ...process.env, TMPDIR: mkdtempSync(join(scratch, 'tmp-')), NODE_DISABLE_COMPILE_CACHE: '1' } },
  ];
  const commands = (variant) => ({
    'node -e 0': ['-e', '0'],
    'mcprely --version': [cli, '--version'],
    'mcprely lint (complete example)': [cli, 'lint', 'fixtures/examples/billing.yaml'],
    'mcprely lint --cache (corpus, re-run)': [
      cli,
      'lint',
      '--cache-location',
      cacheFile(variant.label),
      '-f',
      'json',
      '-o',
      '/dev/null',
      corpus,
    ],
  });
  // The first run of each: writes the lint cache (and the compile cache where it is on); not measured.
  for (const variant of variants) for (const args of Object.values(commands(variant))) run(runtime.exe, args, variant.env);
  const samples = new Map();
  for (let round = 0; round < rounds; round++)
    for (const variant of variants)
      for (const [name, args] of Object.entries(commands(variant))) {
        const key = `${variant.label}\0${name}`;
        samples.set(key, [...(samples.get(key) ?? []), run(runtime.exe, args, variant.env)]);
      }
  console.log(`\n${runtime.name}: median of ${rounds} interleaved runs (${cli})`);
  for (const variant of variants) {
    const at = (name) => median(samples.get(`${variant.label}\0${name}`));
    const floor = at('node -e 0');
    const version = at('mcprely --version');
    console.log(`  ${variant.label}`);
    for (const name of Object.keys(commands(variant))) {
      const ms = at(name);
      const ratio = (base) => `${(ms / base).toFixed(2).padStart(5)}×`;
      console.log(`    ${name.padEnd(40)} ${ms.toFixed(1).padStart(7)} ms  ${ratio(floor)} node -e 0  ${ratio(version)} --version`);
    }
    if (runtime.targets && variant === variants[0]) {
      const cold = at('mcprely lint (complete example)') / floor;
      const cached = at('mcprely lint --cache (corpus, re-run)') / version;
      const verdict = (pass) => (pass ? 'ok' : 'MISSED');
      console.log(`    target: cold start ≤ 2.5× node -e 0: ${cold.toFixed(2)}× ${verdict(cold <= 2.5)}`);
      console.log(`    target: cached corpus re-run ≤ 1.3× mcprely --version: ${cached.toFixed(2)}× ${verdict(cached <= 1.3)}`);
      ok &&= cold <= 2.5 && cached <= 1.3;
    }
  }
}
rmSync(scratch, { recursive: true, force: true });
process.exitCode = ok ? 0 : 1;
