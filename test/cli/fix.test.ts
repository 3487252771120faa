import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import AjvDraft04Module from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { applyFixes, placeOfFix } from '../../src/document/apply-fixes.js';
import { unifiedDiff } from '../../src/fix-writer/fix-files.js';
import { parseDocumentBytes } from '../../src/document/parse-document.js';
import { changeOf, type Finding, type FixChange } from '../../src/findings/finding.js';
import { parsePointer } from '../../src/document/json-pointer.js';
import { isInputFinding } from '../../src/findings/input-rules.js';
import { bundledRules } from '../../src/rules/load-rules.js';
import { lintText, manifest } from '../helpers/lint-text.js';
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
  // Removals: a flow entry of an operation, a block line of the defaults.
  ['cancellation: { stopsWork: checkpoint }', 'cancellation: { stopsWork: checkpoint, serverSendsCancelled: true }'],
  ['    invalidOrLate: ignore\n', '    invalidOrLate: ignore\n    serverSendsCancelled: true # not on tools/call\n'],
];

const data = (text: string, file = 'm.yaml') => {
  const parsed = parseDocumentBytes(file, new TextEncoder().encode(text));
  if (!parsed.ok) throw new Error(parsed.problems[0]!.message);
  return parsed.document;
};
/** A finding's fix of either kind: these tests exercise the fixing machinery, so a claim change counts (--fix-type layout,claim). */
const fixOf = (finding: Finding) => finding.autofix ?? finding.claimFix;
const fixable = (findings: readonly Finding[]) => findings.filter((finding) => fixOf(finding) !== undefined);
const ALL_KINDS = ['--fix-type', 'layout,claim'];

/**
 * One --fix pass in process: the fixable findings' edits applied to the text, at the place --fix chooses (an
 * inherited default where it is written), or with `ownField` at each operation's own field (new lines).
 */
function fixOnce(
  text: string,
  file = 'm.yaml',
  ownField = false,
): { text: string; edits: { path: (string | number)[]; change: FixChange }[] } {
  const source = data(text, file).source;
  const edits = fixable(lintText(text, undefined, file)).map((finding) => {
    const path = parsePointer(finding.path);
    const change = changeOf(fixOf(finding)!);
    // A removal always goes where the value is written (an inherited one in the defaults).
    return { path: ownField && !('remove' in change) ? path : [...placeOfFix(source, path)], change };
  });
  return { text: applyFixes(text, source, edits, file.endsWith('.json') ? 'json' : 'yaml').text, edits };
}

/** What a change means for the parsed value: a set, an item added, or a key removed with the mappings it leaves empty. */
function changeIn(value: unknown, path: readonly (string | number)[], change: FixChange): unknown {
  if ('set' in change) return setIn(value, path, change.set);
  const current = path.reduce<unknown>((inner, segment) => (inner as Record<string, unknown> | undefined)?.[segment], value);
  if ('add' in change)
    return setIn(value, path, Array.isArray(current) ? (current.includes(change.add) ? current : [...current, change.add]) : [change.add]);
  if (current === undefined) return value;
  let at = path;
  for (;;) {
    const parentPath = at.slice(0, -1);
    const parent = parentPath.reduce<unknown>((inner, segment) => (inner as Record<string, unknown>)[segment], value) as Record<
      string,
      unknown
    >;
    if (Object.keys(parent).length > 1 || parentPath.length === 0 || typeof parentPath.at(-1) !== 'string') {
      const { [String(at.at(-1))]: _removed, ...rest } = parent;
      return setIn(value, parentPath, rest);
    }
    at = parentPath;
  }
}

function setIn(value: unknown, path: readonly (string | number)[], to: unknown): unknown {
  if (path.length === 0) return to;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === Number(head) ? setIn(item, rest, to) : item));
  const object = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return { ...object, [head as string]: setIn(object[head as string], rest, to) };
}

describe('lint --fix --fix-type layout,claim: fixes that keep every other byte', () => {
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
    const fixed = runCli(['lint', file, '--fix', ...ALL_KINDS]);
    expect(fixed.status, fixed.stdout + fixed.stderr).toBe(0);
    expect(fixed.stderr).toMatch(/^fixed \d+ values? in 1 file$/m);
    const after = readFileSync(file, 'utf8');
    expect(after).toContain('suppressResponseAfterCancel: true # was true');
    // Each claim change is a to-do for the code, and the comment kept beside a changed value may now be wrong.
    expect(fixed.stderr).toContain(
      ': now claims cancellation.suppressResponseAfterCancel: true — change the code; `mcprely drift` checks it; ' +
        'the comment kept on its line (# was true) may need rewording\n',
    );
    expect(fixed.stderr).toMatch(/: now claims idempotency\.whileInFlight: "wait" — change the code/);
    expect(after).toContain('whileInFlight: wait');
    expect(after.split('\n').filter((line) => line.trimStart().startsWith('#'))).toEqual(
      broken.split('\n').filter((line) => line.trimStart().startsWith('#')),
    );
    const again = runCli(['lint', file, '--fix', ...ALL_KINDS]);
    expect(again.stderr).toMatch(/^fixed 0 values in 0 files$/m);
    expect(readFileSync(file, 'utf8')).toBe(after);
  });

  it('--fix-dry-run prints a unified diff and changes no file', () => {
    const dir = tmp();
    const file = join(dir, 'billing.yaml');
    const broken = BILLING.replace('invalidOrLate: ignore', 'invalidOrLate: error-response');
    writeFileSync(file, broken);
    const run = runCli(['lint', file, '--fix-dry-run', ...ALL_KINDS]);
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
    const texts = new Map(names.map((name) => [name, readFileSync(`fixtures/examples/flawed/${name}`, 'utf8')]));
    for (const [name, text] of texts) writeFileSync(join(dir, name), text);
    // One run fixes the folder, one reads what is left: two processes, not two per file.
    runCli(['lint', dir, '--fix', ...ALL_KINDS]);
    const left = new Map(
      (JSON.parse(runCli(['lint', dir, '-f', 'json']).stdout) as { files: { file: string; findings: Finding[] }[] }).files.map((report) => [
        basename(report.file),
        report.findings,
      ]),
    );
    let fixableBefore = 0;
    for (const [name, text] of texts) {
      const before = fixable(lintText(text)).length;
      fixableBefore += before;
      // A file with something to fix was changed; one without was left byte for byte.
      if (before > 0) expect(readFileSync(join(dir, name), 'utf8'), name).not.toBe(text);
      else expect(readFileSync(join(dir, name), 'utf8'), name).toBe(text);
      expect(left.get(name), name).toBeDefined();
      expect(fixable(left.get(name)!), name).toEqual([]);
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
          const expected = first.edits.reduce<unknown>((value, edit) => changeIn(value, edit.path, edit.change), data(text).value);
          expect(data(first.text).value).toEqual(expected);
          const commentLines = (source: string) => source.split('\n').filter((line) => line.trimStart().startsWith('#'));
          expect(commentLines(after)).toEqual(commentLines(text));
        },
      ),
      { numRuns: 1000 },
    );
  }, 120_000);
});

/** Applies one finding's change (safe fix or suggestion) alone, at the place --fix chooses. */
function applyOne(text: string, finding: Finding, fix: FixChange): string {
  const source = data(text).source;
  return applyFixes(text, source, [{ path: [...placeOfFix(source, parsePointer(finding.path))], change: changeOf(fix) }], 'yaml').text;
}

const sameFinding = (a: Finding) => (b: Finding) => a.ruleId === b.ruleId && a.messageId === b.messageId && a.path === b.path;

describe('the fixes the rules declare', () => {
  /** Every bundled rule's failing example, and manifests that leave out or break what the suggestions fill in. */
  const cases = (): string[] => [
    ...bundledRules().rules.map((rule) => rule.definition.examples.failing),
    manifest({
      operations: [
        '  - name: a',
        '    method: tools/call',
        '    sideEffect: none',
        '    timeouts: { idleMs: 3000, maxMs: 9000 }',
        '    progress: { emits: true, maxIntervalMs: 1000 }',
        '    cancellation: { stopsWork: immediately, serverSendsCancelled: true }',
      ].join('\n'),
    }),
    manifest({
      server: '{ name: demo, transports: [streamable-http] }',
      operations: [
        '  - name: b',
        '    method: tools/call',
        '    sideEffect: idempotent',
        '    timeouts: { idleMs: 3000, maxMs: 9000 }',
        '    progress: { emits: true, minIntervalMs: 0, receiverMinIntervalMs: 500, maxIntervalMs: 1000 }',
        '    retry: { automatic: on-timeout, newRequestId: true, backoff: { baseMs: 100, jitter: none } }',
        '    flowControl: { progressBuffer: { overflow: drop-oldest } }',
        '    recovery: { reconnect: { newRequestId: true, backoff: { baseMs: 100, jitter: none } } }',
      ].join('\n'),
    }),
  ];

  it('each fix (layout or claim) and each suggestion, applied alone, clears its finding and leaves a valid manifest', () => {
    const exercised = new Set<string>();
    for (const text of cases()) {
      for (const finding of lintText(text)) {
        for (const [kind, fix] of [
          ['autofix', fixOf(finding)],
          ['suggestion', finding.suggestion],
        ] as const) {
          if (fix === undefined) continue;
          const fixed = applyOne(text, finding, fix);
          const after = lintText(fixed);
          const label = `${finding.ruleId}/${finding.messageId} ${kind} ${JSON.stringify(changeOf(fix))} at ${finding.path}\n${fixed}`;
          expect(after.filter(isInputFinding), label).toEqual([]);
          expect(after.some(sameFinding(finding)), label).toBe(false);
          exercised.add(`${finding.ruleId} ${kind}`);
        }
      }
    }
    // Every rule that declares a fix or a suggestion had it tried.
    const declared = bundledRules().rules.flatMap(({ definition }) => {
      const checks = definition.checks ?? (definition.then === undefined ? [] : [{ then: definition.then }]);
      const all = [definition, ...checks, ...checks.flatMap((check) => (Array.isArray(check.then) ? check.then : [check.then]))] as {
        autofix?: unknown;
        suggestion?: unknown;
      }[];
      return [
        ...(all.some((part) => part?.autofix !== undefined) ? [`${definition.id} autofix`] : []),
        ...(all.some((part) => part?.suggestion !== undefined) ? [`${definition.id} suggestion`] : []),
      ];
    });
    expect(declared.length).toBeGreaterThan(25);
    expect([...exercised].sort()).toEqual(expect.arrayContaining(declared.sort()));
    expect(declared.filter((name) => !exercised.has(name))).toEqual([]);
  });

  it('lint --fix never applies a suggestion; stylish, markdown and SARIF show it', () => {
    const dir = tmp();
    const file = join(dir, 'm.yaml');
    const text = cases().at(-1)!;
    writeFileSync(file, text);
    const stylish = runCli(['lint', file]).stdout;
    expect(stylish).toMatch(/\(suggested: set retry\.backoff\.capMs to 8000\) +retry-backoff$/m);
    expect(stylish).toMatch(/^\d+ findings have a suggested value: check it fits, then write it in/m);
    expect(runCli(['lint', file, '-f', 'markdown']).stdout).toContain('*Suggested:* set flowControl.progressBuffer.capacity to 64');
    const sarif = JSON.parse(runCli(['lint', file, '-f', 'sarif']).stdout) as {
      runs: { results: { ruleId: string; fixes?: { description: { text: string } }[] }[] }[];
    };
    const capacity = sarif.runs[0]!.results.find((result) => result.ruleId === 'flow-capacity-explicit')!;
    expect(capacity.fixes?.[0]?.description.text).toBe(
      'Set flowControl.progressBuffer.capacity to 64 (a suggestion: check the value before you apply it)',
    );
    runCli(['lint', file, '--fix', ...ALL_KINDS]);
    const after = readFileSync(file, 'utf8');
    expect(after).toContain('progressBuffer: { overflow: drop-oldest }');
    expect(after).not.toContain('capMs');
  });
});

describe('applyFixes: remove and add', () => {
  const apply = (text: string, path: (string | number)[], change: FixChange, format: 'yaml' | 'json' = 'yaml') =>
    applyFixes(text, data(text, format === 'json' ? 'm.json' : 'm.yaml').source, [{ path, change }], format).text;

  it('removes a block entry with its line and its comment, keeping the lines around it', () => {
    const text = 'a:\n  # about b\n  b: 1 # one\n  c: 2\nd: 3\n';
    expect(apply(text, ['a', 'b'], { remove: true })).toBe('a:\n  # about b\n  c: 2\nd: 3\n');
    expect(apply(text, ['a', 'c'], { remove: true })).toBe('a:\n  # about b\n  b: 1 # one\nd: 3\n');
  });

  it('removes a flow entry with one comma, and a mapping left empty with its key', () => {
    expect(apply('a: { b: 1, c: 2 }\n', ['a', 'b'], { remove: true })).toBe('a: { c: 2 }\n');
    expect(apply('a: { b: 1, c: 2 }\n', ['a', 'c'], { remove: true })).toBe('a: { b: 1 }\n');
    expect(apply('x: 1\na: { b: 1 }\n', ['a', 'b'], { remove: true })).toBe('x: 1\n');
    expect(apply('x: 1\na:\n  b: 1\ny: 2\n', ['a', 'b'], { remove: true })).toBe('x: 1\ny: 2\n');
    expect(apply('a: { b: 1 }\n', ['a', 'b'], { remove: true })).toBe('{}\n');
    expect(apply('l:\n  - b: 1\n    c: 2\n', ['l', 0, 'b'], { remove: true })).toBe('l:\n  - c: 2\n');
    expect(apply('l:\n  - b: 1\n', ['l', 0, 'b'], { remove: true })).toBe('l:\n  - {}\n');
    expect(apply('l: [{ b: 1 }]\n', ['l', 0, 'b'], { remove: true })).toBe('l: [{}]\n');
    expect(apply('x: 1\n', ['a', 'b'], { remove: true })).toBe('x: 1\n');
  });

  it('removes a JSON member keeping the layout', () => {
    const text = '{\n  "a": {\n    "b": 1,\n    "c": 2\n  },\n  "d": 3\n}\n';
    expect(apply(text, ['a', 'b'], { remove: true }, 'json')).toBe('{\n  "a": {\n    "c": 2\n  },\n  "d": 3\n}\n');
    expect(apply(text, ['a', 'c'], { remove: true }, 'json')).toBe('{\n  "a": {\n    "b": 1\n  },\n  "d": 3\n}\n');
    expect(JSON.parse(apply(text, ['d'], { remove: true }, 'json'))).toEqual({ a: { b: 1, c: 2 } });
  });

  it('adds a list item once: block, flow, JSON, or a new list', () => {
    expect(apply('l:\n  - a # first\n  - b\nx: 1\n', ['l'], { add: 'c' })).toBe('l:\n  - a # first\n  - b\n  - c\nx: 1\n');
    expect(apply('l: [a, b]\n', ['l'], { add: 'c' })).toBe('l: [a, b, c]\n');
    expect(apply('l: []\n', ['l'], { add: 'c' })).toBe('l: [c]\n');
    expect(apply('l: [a, "c"]\n', ['l'], { add: 'c' })).toBe('l: [a, "c"]\n');
    expect(apply('x: 1\n', ['l'], { add: 'c' })).toBe('x: 1\nl: [c]\n');
    expect(apply('{\n  "l": [\n    "a"\n  ]\n}\n', ['l'], { add: 'b' }, 'json')).toBe('{\n  "l": [\n    "a",\n    "b"\n  ]\n}\n');
  });
});

/** Applies a unified diff's hunks to a text (context and removed lines must match, or it throws). */
function patch(before: string, diff: string): string {
  const lines = before.split('\n');
  const out: string[] = [];
  let at = 0;
  const body = diff.split('\n').slice(2);
  for (let index = 0; index < body.length; index++) {
    const header = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(body[index]!);
    if (header === null) continue;
    const from = Number(header[1]) - 1;
    while (at < from) out.push(lines[at++]!);
    for (index++; index < body.length && !body[index]!.startsWith('@@'); index++) {
      const line = body[index]!;
      if (line === '' && index === body.length - 1) break;
      const text = line.slice(1);
      if (line.startsWith('+')) out.push(text);
      else {
        if (lines[at] !== text) throw new Error(`line ${at + 1}: expected ${JSON.stringify(text)}, found ${JSON.stringify(lines[at])}`);
        if (line.startsWith(' ')) out.push(text);
        at++;
      }
    }
    index--;
  }
  while (at < lines.length) out.push(lines[at++]!);
  return out.join('\n');
}

describe('--fix-dry-run diffs', () => {
  it('property: the diff of lines replaced, added and removed turns before into after', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd', '', '  x: 1'), { minLength: 1, maxLength: 30 }),
        fc.array(fc.tuple(fc.nat(40), fc.constantFrom('replace', 'add', 'remove'), fc.constantFrom('a', 'n', 'z: 2')), { maxLength: 6 }),
        (before, edits) => {
          const after: string[] = [...before];
          for (const [position, kind, text] of edits) {
            const at = position % (after.length + 1);
            if (kind === 'add') after.splice(at, 0, text);
            else if (at < after.length) {
              if (kind === 'remove') after.splice(at, 1);
              else after[at] = text;
            }
          }
          const a = before.join('\n');
          const b = after.join('\n');
          if (a === b) return;
          expect(patch(a, unifiedDiff('m.yaml', a, b))).toBe(b);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
