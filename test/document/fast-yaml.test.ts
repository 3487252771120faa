import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastParseYaml } from '../../src/document/fast-yaml.js';
import { parseYamlEvents } from '../../src/document/parse-yaml.js';
import { bundledRules } from '../../src/rules/load-rules.js';
import { flawed, generateCorpus } from '../../bench/generate-corpus.mjs';

/** The fast reader either leaves a text to js-yaml, or gives exactly what js-yaml's events give: values and source map. */
function agrees(text: string): 'fast' | 'left' {
  const fast = fastParseYaml(text);
  if (fast === undefined) return 'left';
  const events = parseYamlEvents(text);
  expect(events.ok, text).toBe(true);
  if (!events.ok) return 'fast';
  expect(fast.value, text).toEqual(events.document.value);
  expect(fast.source, text).toEqual(events.document.source);
  return 'fast';
}

function yamlFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true })
    .map(String)
    .filter((name) => /\.ya?ml$/.test(name))
    .map((name) => join(folder, name));
}

describe('the fast YAML reader agrees with js-yaml', () => {
  it('on every example, probe manifest, rule example and benchmark manifest, and reads the common ones itself', () => {
    const texts = [
      ...yamlFiles('fixtures').map((file) => readFileSync(file, 'utf8')),
      ...yamlFiles('test/probe/servers').map((file) => readFileSync(file, 'utf8')),
      ...bundledRules().rules.flatMap((rule) => [rule.definition.examples.failing, rule.definition.examples.passing]),
    ];
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-fast-yaml-'));
    const corpus = [...generateCorpus(join(dir, 'clean'), 2, 40), ...generateCorpus(join(dir, 'flawed'), 2, 40, flawed)] as string[];
    const outcomes = [...texts, ...corpus.map((file) => readFileSync(file, 'utf8'))].map(agrees);
    expect(outcomes.length).toBeGreaterThan(100);
    // The reader does the work it is for: the examples and the benchmark manifests are its own.
    expect(agrees(readFileSync('fixtures/examples/billing.yaml', 'utf8'))).toBe('fast');
    for (const file of corpus) expect(agrees(readFileSync(file, 'utf8')), file).toBe('fast');
    expect(outcomes.filter((outcome) => outcome === 'fast').length / outcomes.length).toBeGreaterThan(0.8);
  });

  it('reads long quoted scalars in one pass (no rescanning the line per escape): a million escapes each', () => {
    for (const [quoted, value] of [
      [`'${"''".repeat(1_000_000)}'`, "'".repeat(1_000_000)],
      [`"${'\\"'.repeat(1_000_000)}"`, '"'.repeat(1_000_000)],
    ] as const) {
      const text = `mcprely: 1\nname: ${quoted}\nafter: [a, b]\n`;
      expect(agrees(text)).toBe('fast');
      expect((fastParseYaml(text)!.value as { name: string }).name).toBe(value);
    }
  }, 10_000);

  const scalar = fc.oneof(
    fc.constantFrom(
      'a',
      'word',
      'two words',
      'x:y',
      'http://h/p?q=1',
      '-1',
      '0',
      '007',
      '0x1F',
      '0o17',
      '1e3',
      '1.5',
      '.inf',
      '-.inf',
      '.nan',
    ),
    fc.constantFrom('true', 'false', 'True', 'null', '~', 'yes', 'no', 'on', '2026-07-28', '12:30', '-x', '+1', '1_000', "it's", 'a#b'),
    fc.constantFrom(
      '"quoted"',
      '"with \\"escape\\""',
      '"tab\\tnew\\nline"',
      '"\\u00e9"',
      '"\\x41"',
      "'single'",
      "'it''s'",
      '""',
      "''",
      '"a # b"',
    ),
    fc.constantFrom('*alias', '&anchor x', '!tag x', '| block', '> folded', '@at', '`tick', '%pct', '? q', ': c', '[a', 'a]', '{', '- x'),
    fc.stringMatching(/^[a-z0-9 .:_/-]{1,12}$/),
  );
  const key = fc.oneof(
    fc.constantFrom('name', 'a', 'b', 'Content-Type', '"quoted key"', "'q'", '1', 'true', '__proto__', 'k k', '<<'),
    fc.stringMatching(/^[a-z][a-z0-9_-]{0,6}$/),
  );
  type Node = { scalar: string } | { map: [string, Node][]; flow: boolean } | { seq: Node[]; flow: boolean };
  const node: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar.map((value) => ({ scalar: value })),
      fc.record({ map: fc.array(fc.tuple(key, tie('node')), { minLength: 0, maxLength: 4 }), flow: fc.boolean() }),
      fc.record({ seq: fc.array(tie('node'), { minLength: 0, maxLength: 4 }), flow: fc.boolean() }),
    ),
  })).node;

  function flowText(value: Node): string {
    if ('scalar' in value) return value.scalar;
    if ('map' in value) return `{ ${value.map.map(([k, v]) => `${k}: ${flowText(v)}`).join(', ')} }`;
    return `[${value.seq.map(flowText).join(', ')}]`;
  }

  /** A block rendering: `prefix` is what comes before the node on its first line (a key and colon, or a dash). */
  function blockLines(value: Node, indent: number, step: number, comments: boolean): string[] {
    const pad = ' '.repeat(indent);
    if ('scalar' in value || value.flow || ('map' in value ? value.map.length === 0 : value.seq.length === 0)) return [flowText(value)];
    const lines: string[] = [];
    if ('map' in value) {
      for (const [k, v] of value.map) {
        const inner = blockLines(v, indent + step, step, comments);
        if (inner.length === 1 && !inner[0]!.startsWith('\n')) lines.push(`${pad}${k}: ${inner[0]}${comments ? ' # c' : ''}`);
        else lines.push(`${pad}${k}:`, ...inner);
      }
    } else {
      for (const item of value.seq) {
        const inner = blockLines(item, indent + 2, step, comments);
        if (inner.length === 1) lines.push(`${pad}- ${inner[0]}`);
        else lines.push(`${pad}- ${inner[0]!.trimStart()}`, ...inner.slice(1));
      }
    }
    return lines;
  }

  it('property: generated documents (block and flow, quoted and plain, comments) are read alike or left to js-yaml', () => {
    let fast = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, node), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(2, 4),
        fc.boolean(),
        (entries, step, comments) => {
          const text = `${blockLines({ map: entries, flow: false }, 0, step, comments).join('\n')}\n`;
          if (agrees(text) === 'fast') fast++;
        },
      ),
      { numRuns: Number(process.env['FAST_YAML_RUNS'] ?? 6000) },
    );
    // Most generated documents are the reader's own: the comparison is not made on nothing.
    expect(fast).toBeGreaterThan(600);
  }, 600_000);

  it('property: damaged documents (a character inserted, removed or replaced) are read alike or left to js-yaml', () => {
    const base = readFileSync('fixtures/examples/billing.yaml', 'utf8');
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.nat(base.length),
            fc.constantFrom(
              '',
              ' ',
              '\n',
              ':',
              '-',
              '#',
              '"',
              "'",
              '[',
              ']',
              '{',
              '}',
              ',',
              'x',
              '  ',
              '\t',
              '&a',
              '*a',
              '? ',
              '\\',
              '\\n',
              '\r',
            ),
          ),
          { minLength: 1, maxLength: 3 },
        ),
        fc.boolean(),
        (edits, remove) => {
          let text = base;
          for (const [at, insert] of edits) text = text.slice(0, at) + insert + text.slice(at + (remove ? 1 : 0));
          const fast = fastParseYaml(text);
          if (fast === undefined) return;
          const events = parseYamlEvents(text);
          expect(events.ok, text).toBe(true);
          if (events.ok) {
            expect(fast.value).toEqual(events.document.value);
            expect(fast.source).toEqual(events.document.source);
          }
        },
      ),
      { numRuns: Number(process.env['FAST_YAML_RUNS'] ?? 3000) },
    );
  }, 600_000);
});
