import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkImports } from '../scripts/check-imports.mjs';

type Check = (src?: string) => { problems: string[]; edges: Map<string, Set<string>> };
const check = checkImports as Check;

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
});
