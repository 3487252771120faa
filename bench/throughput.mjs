// Throughput: `mcprely lint` on 10 000 operations (100 files × 100) against js-yaml only loading them.
// Target (issue: foundation): at most 2× the js-yaml load floor.
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from './generate-corpus.mjs';
import { printRatios, race, timeCommand } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const paths = generateCorpus(fileURLToPath(new URL('corpus', import.meta.url)));
const bytes = paths.reduce((sum, path) => sum + statSync(path).size, 0);
const node = process.execPath;
const rounds = Number(process.env.ROUNDS ?? 7);

const medians = race(
  {
    'js-yaml load only': () => timeCommand(node, ['bench/js-yaml-load.mjs', ...paths], { cwd: root }),
    'mcprely lint': () =>
      timeCommand(node, ['dist/mcprely.js', 'lint', '--format', 'json', '--output', '/dev/null', ...paths], { cwd: root, okStatuses: [0] }),
  },
  rounds,
);
const ok = printRatios(
  `Throughput: ${paths.length} files, 10 000 operations, ${(bytes / 1e6).toFixed(1)} MB (median of ${rounds} interleaved runs)`,
  medians,
  'js-yaml load only',
  { 'mcprely lint': 2 },
);
process.exitCode = ok ? 0 : 1;
