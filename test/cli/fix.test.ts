import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import AjvDraft04Module from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { applyFixes, placeOfFix } from '../../src/document/apply-fixes.js';
import { parseDocumentBytes } from '../../src/document/parse-document.js';
import type { Finding } from '../../src/findings/finding.js';
import { parsePointer } from '../../src/document/describe-schema-error.js';
import { lintText } from '../helpers/lint-text.js';
import { runCli } from '../helpers/run-cli.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'mcprely-fix-'));
const BILLING = readFileSync('fixtures/examples/billing.yaml', 'utf8');

/** Breakages of the complete example that a safe fix repairs: the text, what it becomes. */
const BREAKAGES: readonly [string, string][] = [
  ['suppressResponseAfterCancel: true', 'suppressResponseAfterCancel: false'],
  ['invalidOrLate: ignore', 'invalidOrLate: error-response'],
  ['cancelOnTimeout: true', 'cancelOnTimeout: false'],
  ['keepaliveCountsAsActivity: false', 'keepaliveCountsAsActivity: true'],
  ['resetMaxOnProgress: false', 'resetMaxOnProgress: true'],
  ['sendLastEventId: false', 'sendLastEventId: true'],
  ['    preserveFinal: true', '    preserveFinal: false'],
  ['    refetchOnDrop: true', '    refetchOnDrop: false'],
  ['replayUnsafeMutations: false', 'replayUnsafeMutations: true'],
  ['whileInFlight: wait', 'whileInFlight: execute'],
  ['carriesToolName: false', 'carriesToolName: true'],
];

const data = (text: string, file = 'm.yaml') => {
  const parsed = parseDocumentBytes(file, new TextEncoder().encode(text));
  if (!parsed.ok) throw new Error(parsed.problems[0]!.message);
  return parsed.document;
};
const fixable = (findings: readonly Finding[]) => findings.filter((finding) => finding.autofix !== undefined);

/**
 * One --fix pass in process: the fixable findings' edits applied to the text, at the place --fix chooses (an
 * inherited default where it is written), or with `ownField` at each operation's own field (new lines).
 */
function fixOnce(
  text: string,
  file = 'm.yaml',
  ownField = false,
): { text: string; edits: { path: (string | number)[]; value: unknown }[] } {
  const source = data(text, file).source;
  const edits = fixable(lintText(text, undefined, file)).map((finding) => {
    const path = parsePointer(finding.path);
    return { path: ownField ? path : [...placeOfFix(source, path)], value: finding.autofix!.set };
  });
  return { text: applyFixes(text, source, edits, file.endsWith('.json') ? 'json' : 'yaml').text, edits };
}

function setIn(value: unknown, path: readonly (string | number)[], to: unknown): unknown {
  if (path.length === 0) return to;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === Number(head) ? setIn(item, rest, to) : item));
  const object = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return { ...object, [head as string]: setIn(object[head as string], rest, to) };
}

describe('lint --fix: safe fixes that keep every other byte', () => {
  it('fixes a commented manifest in place: comments, blank lines and order kept, a second --fix changes nothing', () => {
    const dir = tmp();
    const file = join(dir, 'billing.yaml');
    const broken = BILLING.replace('suppressResponseAfterCancel: true', 'suppressResponseAfterCancel: false # was true')
      .replace('    preserveFinal: true', '    preserveFinal: false')
      .replace('whileInFlight: wait', 'whileInFlight: replay');
    writeFileSync(file, broken);
    const before = runCli(['lint', file, '-f', 'json']);
    const findingsBefore = (JSON.parse(before.stdout) as { files: { findings: Finding[] }[] }).files[0]!.findings;
    expect(fixable(findingsBefore).length).toBeGreaterThanOrEqual(3);
    const fixed = runCli(['lint', file, '--fix']);
    expect(fixed.status, fixed.stdout + fixed.stderr).toBe(0);
    expect(fixed.stderr).toMatch(/^fixed \d+ values? in 1 file$/m);
    const after = readFileSync(file, 'utf8');
    expect(after).toContain('suppressResponseAfterCancel: true # was true');
    expect(after).toContain('whileInFlight: wait');
    expect(after.split('\n').filter((line) => line.trimStart().startsWith('#'))).toEqual(
      broken.split('\n').filter((line) => line.trimStart().startsWith('#')),
    );
    const again = runCli(['lint', file, '--fix']);
    expect(again.stderr).toMatch(/^fixed 0 values in 0 files$/m);
    expect(readFileSync(file, 'utf8')).toBe(after);
  });

  it('--fix-dry-run prints a unified diff and changes no file', () => {
    const dir = tmp();
    const file = join(dir, 'billing.yaml');
    const broken = BILLING.replace('invalidOrLate: ignore', 'invalidOrLate: error-response');
    writeFileSync(file, broken);
    const run = runCli(['lint', file, '--fix-dry-run']);
    expect(run.stdout).toMatch(/^--- a\/.*billing\.yaml\n\+\+\+ b\/.*billing\.yaml\n@@ -\d+,\d+ \+\d+,\d+ @@$/m);
    expect(run.stdout).toMatch(/^- {4}invalidOrLate: error-response$/m);
    expect(run.stdout).toMatch(/^\+ {4}invalidOrLate: ignore$/m);
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });

  it('SARIF carries each safe fix as a replacement that makes it, valid against the 2.1.0 schema', () => {
    const dir = tmp();
    const file = join(dir, 'billing.yaml');
    const broken = BILLING.replace('invalidOrLate: ignore', 'invalidOrLate: error-response').replace('      whileInFlight: wait\n', '');
    writeFileSync(file, broken);
    const sarif = JSON.parse(runCli(['lint', file, '-f', 'sarif']).stdout);
    type AjvClass = new (options: Record<string, unknown>) => { compile(schema: object): (data: unknown) => boolean };
    const AjvDraft04 = (AjvDraft04Module as unknown as { default: AjvClass }).default;
    const validate = new AjvDraft04({ unicodeRegExp: false, validateFormats: false, strict: false }).compile(
      JSON.parse(readFileSync('node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json', 'utf8')),
    );
    expect(validate(sarif)).toBe(true);
    const results = sarif.runs[0].results as {
      ruleId: string;
      fixes?: {
        artifactChanges: {
          replacements: {
            deletedRegion: { startLine: number; startColumn: number; endColumn: number };
            insertedContent: { text: string };
          }[];
        }[];
      }[];
    }[];
    const invalid = results.find((result) => result.ruleId === 'cancel-invalid-ignored')!;
    const replacement = invalid.fixes![0]!.artifactChanges[0]!.replacements[0]!;
    const line = broken.split('\n')[replacement.deletedRegion.startLine - 1]!;
    const patched =
      line.slice(0, replacement.deletedRegion.startColumn - 1) +
      replacement.insertedContent.text +
      line.slice(replacement.deletedRegion.endColumn - 1);
    expect(patched).toBe('    invalidOrLate: ignore');
    // A finding whose fix needs a person's number or name carries no fix.
    expect(results.find((result) => result.ruleId === 'idem-in-flight')?.fixes).toBeUndefined();
  });

  it('fixes a JSON manifest keeping its layout, adding a missing key on a line of its own', () => {
    const manifest = {
      mcprely: 1,
      specVersion: '2026-07-28',
      server: { name: 's', transports: ['stdio'] },
      operations: [
        {
          name: 'a',
          method: 'tools/call',
          sideEffect: 'none',
          timeouts: { idleMs: 1000, maxMs: 5000, lateResponse: 'deliver' },
          cancellation: { stopsWork: 'immediately' },
        },
      ],
    };
    const text = `${JSON.stringify(manifest, null, 2)}\n`;
    const { text: fixed } = fixOnce(text, 'm.json');
    expect(fixed).toContain('"lateResponse": "ignore"');
    expect(fixed).toMatch(/\n {8}"suppressResponseAfterCancel": true\n/);
    expect(JSON.parse(fixed).operations[0].timeouts).toEqual({ idleMs: 1000, maxMs: 5000, lateResponse: 'ignore' });
    expect(fixable(lintText(fixed, undefined, 'm.json'))).toEqual([]);
  });

  it('every flawed example: after --fix no fixable finding is left, and what is left needs a human', () => {
    const dir = tmp();
    const names = readdirSync('fixtures/examples/flawed').filter((name) => name.endsWith('.yaml'));
    expect(names.length).toBeGreaterThan(10);
    let fixableBefore = 0;
    for (const name of names) {
      const file = join(dir, name);
      const text = readFileSync(`fixtures/examples/flawed/${name}`, 'utf8');
      writeFileSync(file, text);
      const before = fixable(lintText(text)).length;
      fixableBefore += before;
      runCli(['lint', file, '--fix']);
      // A file with something to fix was changed; one without was left byte for byte.
      if (before > 0) expect(readFileSync(file, 'utf8'), name).not.toBe(text);
      else expect(readFileSync(file, 'utf8'), name).toBe(text);
      const left = (JSON.parse(runCli(['lint', file, '-f', 'json']).stdout) as { files: { findings: Finding[] }[] }).files[0]!.findings;
      expect(fixable(left), name).toEqual([]);
    }
    // The examples hold fixable flaws: the test is not passing on nothing.
    expect(fixableBefore).toBeGreaterThan(1);
  });

  it('property (1 000 generated manifests): only the fixed paths change, comments stay, nothing fixable is left, a second pass is a no-op', () => {
    const lines = BILLING.split('\n');
    fc.assert(
      fc.property(
        fc.subarray([...BREAKAGES.keys()], { minLength: 1 }),
        fc.array(
          fc.tuple(
            fc.nat({ max: lines.length - 1 }),
            fc.string({ maxLength: 20 }).map((text) => text.replace(/[\r\n]/g, ' ')),
          ),
          {
            maxLength: 6,
          },
        ),
        fc.boolean(),
        (broken, comments, ownField) => {
          let text = BILLING;
          for (const index of broken) text = text.replace(BREAKAGES[index]![0], BREAKAGES[index]![1]);
          // Comment lines at line boundaries outside flow collections (every flow collection here is on one line).
          const split = text.split('\n');
          for (const [at, words] of [...comments].sort((a, b) => b[0] - a[0])) split.splice(at, 0, `# ${words}`);
          text = split.join('\n');
          const first = fixOnce(text, 'm.yaml', ownField);
          let after = first.text;
          for (let pass = 0; pass < 4 && fixable(lintText(after)).length > 0; pass++) after = fixOnce(after, 'm.yaml', ownField).text;
          expect(fixable(lintText(after))).toEqual([]);
          expect(fixOnce(after, 'm.yaml', ownField).text).toBe(after);
          const expected = first.edits.reduce<unknown>((value, edit) => setIn(value, edit.path, edit.value), data(text).value);
          expect(data(first.text).value).toEqual(expected);
          const commentLines = (source: string) => source.split('\n').filter((line) => line.trimStart().startsWith('#'));
          expect(commentLines(after)).toEqual(commentLines(text));
        },
      ),
      { numRuns: 1000 },
    );
  }, 120_000);
});
