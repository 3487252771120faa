import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { stylishFindings } from '../helpers/stylish.js';
import { runCli, showsStackTrace } from '../helpers/run-cli.js';

const GOOD = 'fixtures/examples/billing.yaml';

function billionLaughs(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  const names = 'abcdefghi';
  for (let i = 1; i < names.length; i++)
    lines.push(
      `${names[i]}: &${names[i]} [${Array(9)
        .fill(`*${names[i - 1]}`)
        .join(',')}]`,
    );
  return `${lines.join('\n')}\n`;
}

const VALID_HEAD = 'mcprely: 1\nspecVersion: "2026-07-28"\nserver: {name: x, transports: [stdio]}\n';

interface BadCase {
  readonly name: string;
  readonly file: string;
  /** File content; absent for cases that create something else (a directory) or nothing (a missing path). */
  readonly content?: string | Buffer;
  readonly at?: readonly [line: number, column: number];
  readonly says: RegExp;
  readonly ruleId: string;
}

const CASES: readonly BadCase[] = [
  {
    name: 'malformed YAML (bad indentation)',
    file: 'malformed.yaml',
    content: 'mcprely: 1\nserver:\n  name: x\n    transports: [stdio]\n',
    at: [4, 15],
    says: /YAML is malformed: bad indentation of a mapping entry/,
    ruleId: 'manifest-syntax',
  },
  {
    name: 'malformed YAML (unclosed bracket)',
    file: 'unclosed.yaml',
    content: 'mcprely: 1\nserver: [a, b\nname: x\n',
    at: [2, 9],
    says: /the list "\[" opened here is never closed/,
    ruleId: 'manifest-syntax',
  },
  {
    name: 'duplicate keys',
    file: 'duplicate.yaml',
    content: 'mcprely: 1\nspecVersion: "2026-07-28"\nmcprely: 1\n',
    at: [3, 1],
    says: /"mcprely" appears twice .*first at line 1, column 1/,
    ruleId: 'manifest-syntax',
  },
  {
    name: 'YAML alias bomb (billion laughs)',
    file: 'bomb.yaml',
    content: billionLaughs(),
    at: [5, 23],
    says: /aliases here expand to more than 50000 nodes/,
    ruleId: 'manifest-syntax',
  },
  {
    name: 'file over the 2 MiB size limit',
    file: 'huge.yaml',
    content: `x: "${'a'.repeat(2 * 1024 * 1024)}"\n`,
    says: /over the 2097152-byte limit/,
    ruleId: 'manifest-file',
  },
  {
    name: 'nesting 10 000 deep (YAML)',
    file: 'deep.yaml',
    content: `x: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`,
    at: [1, 67],
    says: /nested more than 64 levels/,
    ruleId: 'manifest-syntax',
  },
  {
    name: 'nesting 10 000 deep (JSON)',
    file: 'deep.json',
    content: `{"x": ${'['.repeat(10_000)}${']'.repeat(10_000)}}\n`,
    at: [1, 70],
    says: /nested more than 64 levels/,
    ruleId: 'manifest-syntax',
  },
  {
    name: 'several YAML documents in one file',
    file: 'multi.yaml',
    content: `${VALID_HEAD}---\nmcprely: 1\n`,
    at: [4, 1],
    says: /more than one YAML document/,
    ruleId: 'manifest-syntax',
  },
  { name: 'an empty file', file: 'empty.yaml', content: '', at: [1, 1], says: /holds no manifest/, ruleId: 'manifest-syntax' },
  {
    name: 'a file of comments only',
    file: 'comments.yaml',
    content: '# nothing here\n\n',
    at: [1, 1],
    says: /holds no manifest/,
    ruleId: 'manifest-syntax',
  },
  {
    name: 'a binary file',
    file: 'binary.yaml',
    content: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00]),
    at: [1, 7],
    says: /binary/,
    ruleId: 'manifest-file',
  },
  {
    name: 'invalid UTF-8',
    file: 'latin1.yaml',
    content: Buffer.concat([Buffer.from('mcprely: 1\nname: caf'), Buffer.from([0xe9]), Buffer.from('\n')]),
    at: [2, 10],
    says: /not valid UTF-8 \(byte 20 is 0xe9\)/,
    ruleId: 'manifest-file',
  },
  {
    name: 'JSON with a trailing comma',
    file: 'trailing.json',
    content: '{\n  "mcprely": 1,\n  "specVersion": "2026-07-28",\n}\n',
    at: [3, 30],
    says: /trailing comma before "}"/,
    ruleId: 'manifest-syntax',
  },
  {
    name: 'key __proto__',
    file: 'proto.yaml',
    content: `${VALID_HEAD}operations: [{name: a, method: tools/call}]\n__proto__: {polluted: true}\n`,
    at: [5, 1],
    says: /Unknown field "__proto__" in the manifest/,
    ruleId: 'manifest-schema',
  },
  {
    name: 'key constructor',
    file: 'constructor.json',
    content:
      '{"mcprely": 1, "specVersion": "2026-07-28", "server": {"name": "x", "transports": ["stdio"]}, ' +
      '"operations": [{"name": "a", "method": "tools/call"}],\n "constructor": {"prototype": {"polluted": true}}}\n',
    at: [2, 2],
    says: /Unknown field "constructor"/,
    ruleId: 'manifest-schema',
  },
  {
    name: 'wrong types',
    file: 'types.yaml',
    content: `${VALID_HEAD}operations:\n  - name: a\n    method: tools/call\n    timeouts: {idleMs: "5s"}\n`,
    at: [7, 24],
    says: /operations\[0\]\.timeouts\.idleMs must be a whole number, not the text "5s"/,
    ruleId: 'manifest-schema',
  },
  {
    name: 'unknown keys',
    file: 'unknown.yaml',
    content: `${VALID_HEAD}operations:\n  - name: a\n    method: tools/call\n    timeout: {idleMs: 5}\n`,
    at: [7, 5],
    says: /Unknown field "timeout" in operations\[0\] \(did you mean "timeouts"\?\)/,
    ruleId: 'manifest-schema',
  },
  { name: 'a folder without manifests', file: 'a-directory', says: /No manifest .* is in this folder/, ruleId: 'manifest-file' },
  { name: 'a missing path', file: 'no-such-file.yaml', says: /No file exists at this path/, ruleId: 'manifest-file' },
];

describe('bad input: a clear one-line error, exit code 2, and the other files still checked', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcprely-bad-'));
    for (const badCase of CASES) {
      if (badCase.content !== undefined) writeFileSync(join(dir, badCase.file), badCase.content);
    }
    mkdirSync(join(dir, 'a-directory'));
  });

  it.each(CASES)('$name', (badCase) => {
    const path = join(dir, badCase.file);
    const stylish = runCli(['lint', path, GOOD]);
    expect(stylish.status).toBe(2);
    expect(showsStackTrace(stylish.stdout + stylish.stderr)).toBe(false);
    const found = stylishFindings(stylish.stdout).filter((finding) => finding.file === path);
    expect(found, stylish.stdout).toHaveLength(1);
    const finding = found[0]!;
    expect([finding.line, finding.column], finding.text).toEqual(badCase.at ?? [0, 0]);
    expect(finding.severity).toBe('error');
    expect(finding.message).toMatch(badCase.says);
    expect(finding.ruleId).toBe(badCase.ruleId);

    const json = JSON.parse(runCli(['lint', path, GOOD, '--format', 'json']).stdout) as {
      files: { file: string; inputError: boolean; findings: unknown[] }[];
    };
    expect(json.files.map((file) => file.file)).toEqual([path, GOOD]);
    expect(json.files[0]!.inputError).toBe(true);
    expect(json.files[1]).toMatchObject({ inputError: false, findings: [] });
  });

  it('checks every file even when several are bad, in the order given', () => {
    const paths = CASES.map((badCase) => join(dir, badCase.file));
    const run = runCli(['lint', ...paths, GOOD, '--format', 'json']);
    expect(run.status).toBe(2);
    const report = JSON.parse(run.stdout) as { files: { file: string; inputError: boolean }[] };
    expect(report.files.map((file) => file.file)).toEqual([...paths, GOOD]);
    expect(report.files.filter((file) => file.inputError)).toHaveLength(CASES.length);
  });
});
