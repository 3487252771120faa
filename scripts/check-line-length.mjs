// Biome formats code to 140 columns but never splits a string; this keeps every line of our own code within
// 160 characters, strings included. Prints each longer line as file:line: length; exits 1 when there is one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const LIMIT = 160;
const root = fileURLToPath(new URL('..', import.meta.url));
const skip = new Set(['node_modules', 'generated', 'corpus', 'dist']);

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    if (skip.has(name) || name.startsWith('.')) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : /\.(ts|mjs|js)$/.test(name) ? [path] : [];
  });
}

let long = 0;
for (const file of ['src', 'test', 'bench', 'scripts'].flatMap((dir) => walk(join(root, dir)))) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.length <= LIMIT) return;
      long++;
      console.log(`${relative(root, file)}:${index + 1}: ${line.length} characters (at most ${LIMIT})`);
    });
}
if (long === 0) console.log(`line length: every line of src, test, bench and scripts within ${LIMIT} characters`);
process.exitCode = long === 0 ? 0 : 1;
