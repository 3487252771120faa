// Speed with findings, the lint cache, and memory (issue: speed), every figure a ratio measured in this run:
// - the clean corpus and the flawed corpus (maxMs removed, Last-Event-ID on: ≥ 20 000 findings, SARIF), mcprely
//   against Spectral with bench/spectral/ruleset.yaml: time (targets ≥ 7× clean, ≥ 6× flawed) and peak memory
//   (target ≤ one third of Spectral's);
// - the 4× corpus (400 files) against the 1× one: time ≤ 4.4×, peak memory growth ≤ 20 %;
// - a second run with --cache on the unchanged corpus against the first (target ≥ 10× faster).
// Medians of interleaved runs; peak memory is the child's maximum resident set (/usr/bin/time).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flawed, generateCorpus } from './generate-corpus.mjs';
import { median, spectralArgs } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const rounds = Number(process.env.ROUNDS ?? 3);
process.env.SCARF_ANALYTICS = 'false';
const corpus = (name, files, transform) => generateCorpus(fileURLToPath(new URL(name, import.meta.url)), files, 100, transform);
const clean = corpus('corpus', 100);
const broken = corpus('corpus-flawed', 100, flawed);
const four = corpus('corpus-4x', 400);
const scratch = mkdtempSync(join(tmpdir(), 'mcprely-speed-'));
const memoryFile = join(scratch, 'rss');

/** One run: wall time (ms) and peak resident memory (MB) of the command. */
function measure(args) {
  const start = process.hrtime.bigint();
  const run = spawnSync('/usr/bin/time', ['-f', '%M', '-o', memoryFile, process.execPath, ...args], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (![0, 1].includes(run.status)) throw new Error(`${args.join(' ')} exited ${run.status}: ${String(run.stderr).slice(0, 500)}`);
  return { ms, mb: Number(readFileSync(memoryFile, 'utf8').trim().split('\n').at(-1)) / 1024 };
}

function race(contenders) {
  const samples = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) for (const [name, args] of Object.entries(contenders)) samples[name].push(measure(args()));
  return Object.fromEntries(
    Object.entries(samples).map(([name, list]) => [name, { ms: median(list.map((s) => s.ms)), mb: median(list.map((s) => s.mb)) }]),
  );
}

// The format first, then its --output: an --output belongs to the --format before it.
const mcprely =
  (paths, format, ...extra) =>
  () => ['dist/mcprely.js', 'lint', '-f', format, '-o', '/dev/null', ...extra, ...paths];
const spectral = (paths, format) => () => spectralArgs(paths, format);

let ok = true;
const line = (name, figure, target, pass) => {
  if (!pass) ok = false;
  console.log(`  ${name.padEnd(58)} ${figure.padStart(8)}  (target ${target}) ${pass ? 'ok' : 'MISSED'}`);
};
const row = (name, { ms, mb }) => console.log(`  ${name.padEnd(46)} ${ms.toFixed(0).padStart(7)} ms ${mb.toFixed(0).padStart(6)} MB`);

for (const [title, paths, format, timeTarget] of [
  ['clean corpus (100 files, 10 000 operations), JSON', clean, 'json', 7],
  ['flawed corpus (maxMs removed, Last-Event-ID on), SARIF', broken, 'sarif', 6],
]) {
  const result = race({ mcprely: mcprely(paths, format), spectral: spectral(paths, format) });
  console.log(`\n${title}, median of ${rounds} interleaved runs`);
  row('mcprely lint', result.mcprely);
  row('spectral lint (24 rules)', result.spectral);
  const speedup = result.spectral.ms / result.mcprely.ms;
  const memory = result.mcprely.mb / result.spectral.mb;
  line('spectral time / mcprely time', `${speedup.toFixed(1)}×`, `≥ ${timeTarget}×`, speedup >= timeTarget);
  line('mcprely peak memory / spectral peak memory', memory.toFixed(2), '≤ 0.33', memory <= 1 / 3);
}

const growth = race({ '1×': mcprely(clean, 'json'), '4×': mcprely(four, 'json') });
console.log(`\nGrowth: 100 files against 400 files (clean corpus), median of ${rounds} interleaved runs`);
row('mcprely lint, 1× corpus', growth['1×']);
row('mcprely lint, 4× corpus', growth['4×']);
const timeGrowth = growth['4×'].ms / growth['1×'].ms;
const memoryGrowth = growth['4×'].mb / growth['1×'].mb - 1;
line('time of 4× / time of 1×', `${timeGrowth.toFixed(2)}×`, '≤ 4.4×', timeGrowth <= 4.4);
line('peak memory growth from 1× to 4×', `${(memoryGrowth * 100).toFixed(0)} %`, '≤ 20 %', memoryGrowth <= 0.2);

// The floor under any second run: mcprely starting and doing nothing (--version), and Node itself.
const cacheRuns = { first: [], second: [], version: [], node: [] };
for (let round = 0; round < rounds; round++) {
  const location = join(scratch, `cache-${round}.json`);
  rmSync(location, { force: true });
  cacheRuns.first.push(measure(mcprely(clean, 'json', '--cache-location', location)()).ms);
  cacheRuns.second.push(measure(mcprely(clean, 'json', '--cache-location', location)()).ms);
  cacheRuns.version.push(measure(['dist/mcprely.js', '--version']).ms);
  cacheRuns.node.push(measure(['-e', '0']).ms);
}
const first = median(cacheRuns.first);
const second = median(cacheRuns.second);
const floor = median(cacheRuns.version);
console.log(`\nThe lint cache on the clean corpus, median of ${rounds} rounds`);
console.log(`  first run (cache written)                      ${first.toFixed(0).padStart(7)} ms`);
console.log(`  second run, nothing changed (cache read)       ${second.toFixed(0).padStart(7)} ms`);
console.log(`  mcprely --version (start-up alone)              ${floor.toFixed(0).padStart(7)} ms`);
console.log(`  node -e 0                                      ${median(cacheRuns.node).toFixed(0).padStart(7)} ms`);
line('first / second', `${(first / second).toFixed(1)}×`, '≥ 10×', first / second >= 10);
console.log(`  first / start-up alone (the most any cache could give): ${(first / floor).toFixed(1)}×`);
rmSync(scratch, { recursive: true, force: true });
process.exitCode = ok ? 0 : 1;
