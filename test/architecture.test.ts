import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWED, checkImports, checkPurity } from '../scripts/check-imports.mjs';

type Check = (src?: string) => { problems: string[]; edges: Map<string, Set<string>> };
const check = checkImports as Check;
const purity = checkPurity as (src?: string) => string[];

/** A src/ tree of the given files in a temporary folder. */
function tree(files: Record<string, string>): string {
  const src = join(mkdtempSync(join(tmpdir(), 'mcprely-layers-')), 'src');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(src, file)), { recursive: true });
    writeFileSync(join(src, file), text);
  }
  return src;
}

describe('the layering of src/', () => {
  it('holds: every import within its layer, no folder cycle, revisions named only in src/spec', () => {
    const { problems, edges } = check();
    expect(problems).toEqual([]);
    expect(edges.size).toBeGreaterThan(12);
  });

  it('catches an import against the layers, a cycle, and a revision named outside src/spec', () => {
    const src = join(mkdtempSync(join(tmpdir(), 'mcprely-layers-')), 'src');
    const write = (file: string, text: string) => {
      mkdirSync(dirname(join(src, file)), { recursive: true });
      writeFileSync(join(src, file), text);
    };
    write('document/a.ts', "import { b } from '../manifest/b.js';\nexport const a = b;\n");
    write('manifest/b.ts', "import { a } from '../document/a.js';\nexport const b = a;\n");
    write('policy/c.ts', "// 2026-07-28 in a comment is fine\nexport const revision = '2026-07-28';\n");
    write('policy/d.ts', "import { e } from './e.js';\nexport const d = e;\n");
    write('policy/e.ts', "export async function e() {\n  return import('./d.js');\n}\n");
    const { problems } = check(src);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/src\/document may not import src\/manifest/),
        expect.stringMatching(/import cycle between folders: (document → manifest → document|manifest → document → manifest)/),
        expect.stringMatching(/policy\/c\.ts:2: names the revision 2026-07-28/),
        expect.stringMatching(
          /import cycle between files: src\/policy\/(d\.ts → src\/policy\/e\.ts → src\/policy\/d|e\.ts → src\/policy\/d\.ts → src\/policy\/e)\.ts/,
        ),
      ]),
    );
    expect(problems.filter((problem) => problem.includes('c.ts:1'))).toEqual([]);
  });

  it('holds every pure room pure: no file of one reaches src/reference, the file system, sockets, processes or a database', () => {
    expect(purity()).toEqual([]);
  });

  it('reports a pure file that reaches node:fs or src/reference, directly or through its imports, and nothing else', () => {
    const src = tree({
      // Directly, and through another room's file.
      'review/reads-files.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
      'review/runs-races.ts': "import { run } from '../simulator/runner.js';\nexport const races = run;\n",
      'simulator/runner.ts': "import { Ledger } from '../reference/ledger.js';\nexport const run = () => new Ledger();\n",
      'reference/ledger.ts': "import Database from 'better-sqlite3';\nexport class Ledger { db = new Database(':memory:'); }\n",
      // A type loads nothing; a room that is not pure may read files; an excepted reference file is followed.
      'judges/typed.ts': "import type { Ledger } from '../reference/ledger.js';\nexport type Kept = Ledger;\n",
      'cli/main.ts': "import { writeFileSync } from 'node:fs';\nexport const write = writeFileSync;\n",
      'policy/retry.ts': "import { classify } from '../reference/classify-retry.js';\nexport const retry = classify;\n",
      'reference/classify-retry.ts': "import { spawn } from 'node:child_process';\nexport const classify = () => spawn;\n",
    });
    const problems = purity(src);
    expect(problems).toEqual(
      expect.arrayContaining([
        'src/review/reads-files.ts: the pure room src/review reaches node:fs (src/review/reads-files.ts → node:fs)',
        'src/review/runs-races.ts: the pure room src/review reaches src/reference ' +
          '(src/review/runs-races.ts → src/simulator/runner.ts → src/reference/ledger.ts)',
        'src/review/runs-races.ts: the pure room src/review reaches better-sqlite3 ' +
          '(src/review/runs-races.ts → src/simulator/runner.ts → src/reference/ledger.ts → better-sqlite3)',
        'src/policy/retry.ts: the pure room src/policy reaches node:child_process ' +
          '(src/policy/retry.ts → src/reference/classify-retry.ts → node:child_process)',
      ]),
    );
    expect(problems).toHaveLength(4);
  });

  it('sees loads that are no import statement: createRequire(…)(…), process.getBuiltinModule(…), require(…); and sockets, SQLite', () => {
    const src = tree({
      'review/made-require.ts':
        "import { createRequire } from 'node:module';\nexport const fs = createRequire(import.meta.url)('node:fs');\n",
      'judges/builtin.ts': "export const net = process.getBuiltinModule('node:net');\n",
      'live/required.ts': "export const pg = require('pg');\n",
      'findings/served.ts': "import { createServer } from 'node:http';\nexport const serve = createServer;\n",
      'spec/stored.ts': "import { DatabaseSync } from 'node:sqlite';\nexport const open = DatabaseSync;\n",
      // node:crypto through createRequire (text/sha.ts does it) is allowed.
      'text/digest.ts':
        "import { createRequire } from 'node:module';\nexport const crypto = createRequire(import.meta.url)('node:crypto');\n",
    });
    expect(
      purity(src)
        .map((problem) => problem.replace(/ \(.*$/, ''))
        .sort(),
    ).toEqual([
      'src/findings/served.ts: the pure room src/findings reaches node:http',
      'src/judges/builtin.ts: the pure room src/judges reaches node:net',
      'src/live/required.ts: the pure room src/live reaches pg',
      'src/review/made-require.ts: the pure room src/review reaches node:fs',
      'src/spec/stored.ts: the pure room src/spec reaches node:sqlite',
    ]);
  });
});

describe('docs/architecture.md', () => {
  const page = readFileSync(new URL('../docs/architecture.md', import.meta.url), 'utf8');

  it('names every room of src/ in its table of rooms, and no room that is not there', () => {
    const rows = page.split('\n').filter((line) => line.startsWith('| `'));
    const named = new Set(rows.flatMap((row) => [...(row.split(' | ')[0] ?? '').matchAll(/`([a-z-]+)`/g)].map((match) => match[1])));
    expect([...named].sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it('stays a page to read: at most 12 KB, and the README at most 15 KB', () => {
    expect(Buffer.byteLength(page)).toBeLessThanOrEqual(12 * 1024);
    expect(Buffer.byteLength(readFileSync(new URL('../README.md', import.meta.url)))).toBeLessThanOrEqual(15 * 1024);
  });
});
