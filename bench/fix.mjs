// lint --fix on 10 000 operations (100 files × 100) with one safe fix per operation, against plain lint of
// the same broken corpus. --fix-dry-run does all of --fix's work (fixes, relint, diff) but leaves the files, so
// every round sees the same input. Reported as a ratio; no target yet (issue: authoring).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from './generate-corpus.mjs';
import { printRatios, race, timeCommand } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const clean = generateCorpus(fileURLToPath(new URL('corpus', import.meta.url)));
const folder = fileURLToPath(new URL('corpus-fix', import.meta.url));
rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
let fixes = 0;
const paths = clean.map((path) => {
  // Every operation's caller would deliver a late response: one safe fix (lateResponse: ignore) each.
  const text = readFileSync(path, 'utf8').replace(/(timeouts: \{ [^}]*?)( \})/g, (_, head, tail) => {
    fixes++;
    return `${head}, lateResponse: deliver${tail}`;
  });
  const target = join(folder, basename(path));
  writeFileSync(target, text);
  return target;
});
const node = process.execPath;
const rounds = Number(process.env.ROUNDS ?? 5);
const lint = ['dist/mcprely.js', 'lint', '--format', 'json', '--output', '/dev/null'];
const medians = race(
  {
    'mcprely lint': () => timeCommand(node, [...lint, ...paths], { cwd: root, okStatuses: [0, 1] }),
    'mcprely lint --fix-dry-run': () => timeCommand(node, [...lint, '--fix-dry-run', ...paths], { cwd: root, okStatuses: [0, 1] }),
  },
  rounds,
);
printRatios(
  `--fix: ${paths.length} files, ${fixes} safe fixes (one per operation) (median of ${rounds} interleaved runs)`,
  medians,
  'mcprely lint',
  {},
);
