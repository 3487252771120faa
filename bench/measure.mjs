// Shared timing helpers for the benchmarks: whole commands, run alternately so machine noise hits
// every contender alike; medians, not means, so one stall does not decide a ratio.
import { spawnSync } from 'node:child_process';

/** The arguments (after `node`) of Spectral linting `paths` with our rules written as its ruleset, output to nowhere. */
export function spectralArgs(paths, format = 'json') {
  return [
    'node_modules/@stoplight/spectral-cli/dist/index.js',
    'lint',
    '--quiet',
    '-r',
    'bench/spectral/ruleset.yaml',
    '-f',
    format,
    '-o',
    '/dev/null',
    ...paths,
  ];
}

/** Wall time in milliseconds of one run of a command; throws when it fails unexpectedly. */
export function timeCommand(command, args, { okStatuses = [0], cwd } = {}) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (!okStatuses.includes(result.status)) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Runs each contender `rounds` times, interleaved; returns the median per contender. */
export function race(contenders, rounds) {
  const times = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(contenders)) times[name].push(run());
  }
  return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)]));
}

export function printRatios(title, medians, baseline, limits) {
  console.log(`\n${title}`);
  let ok = true;
  for (const [name, ms] of Object.entries(medians)) {
    const ratio = ms / medians[baseline];
    const limit = limits[name];
    const verdict = limit === undefined ? '' : ratio <= limit ? `  ≤ ${limit}× ok` : `  > ${limit}× OVER`;
    if (limit !== undefined && ratio > limit) ok = false;
    console.log(`  ${name.padEnd(44)} ${ms.toFixed(1).padStart(9)} ms  ${ratio.toFixed(2).padStart(6)}×${verdict}`);
  }
  return ok;
}
