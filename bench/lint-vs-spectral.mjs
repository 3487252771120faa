// mcprely with every rule on against Spectral with 24 of our rules written as a Spectral ruleset
// (bench/spectral/ruleset.yaml), both on the 10 000-operation corpus, and against the js-yaml load floor.
// Targets (issue: rule engine): mcprely ≤ 3× the js-yaml floor; Spectral ≥ 5× slower than mcprely.
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from './generate-corpus.mjs';
import { race, spectralArgs, timeCommand } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const paths = generateCorpus(fileURLToPath(new URL('corpus', import.meta.url)));
const bytes = paths.reduce((sum, path) => sum + statSync(path).size, 0);
const node = process.execPath;
const rounds = Number(process.env.ROUNDS ?? 3);
process.env.SCARF_ANALYTICS = 'false';

const medians = race(
  {
    'js-yaml load only': () => timeCommand(node, ['bench/js-yaml-load.mjs', ...paths], { cwd: root }),
    'mcprely lint (all rules)': () =>
      timeCommand(node, ['dist/mcprely.js', 'lint', '--format', 'json', '--output', '/dev/null', ...paths], { cwd: root }),
    'spectral lint (24 rules)': () => timeCommand(node, spectralArgs(paths), { cwd: root }),
  },
  rounds,
);
const floor = medians['js-yaml load only'];
const ours = medians['mcprely lint (all rules)'];
const spectral = medians['spectral lint (24 rules)'];
console.log(
  `\nRule engine: ${paths.length} files, 10 000 operations, ${(bytes / 1e6).toFixed(1)} MB (median of ${rounds} interleaved runs)`,
);
for (const [name, ms] of Object.entries(medians)) console.log(`  ${name.padEnd(28)} ${ms.toFixed(0).padStart(7)} ms`);
const overFloor = ours / floor;
const speedup = spectral / ours;
console.log(`  mcprely / js-yaml floor      ${overFloor.toFixed(2)}×  (target ≤ 3×) ${overFloor <= 3 ? 'ok' : 'OVER'}`);
console.log(`  spectral / mcprely           ${speedup.toFixed(1)}×  (target ≥ 5×) ${speedup >= 5 ? 'ok' : 'UNDER'}`);
process.exitCode = overFloor <= 3 && speedup >= 5 ? 0 : 1;
