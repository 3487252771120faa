import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/run-cli.js';

interface Packed {
  readonly filename: string;
  readonly size: number;
  readonly files: readonly { path: string }[];
}

/** `npm pack` as a user's install gets it; --ignore-scripts packs the dist/ this test run already built. */
function pack(args: readonly string[]): Packed {
  const run = spawnSync('npm', ['pack', '--json', '--ignore-scripts', ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as Packed[])[0]!;
}

describe('the packed package (npm pack)', () => {
  const packed = pack(['--dry-run']);
  const paths = new Set(packed.files.map((file) => file.path));

  it('holds the CLI, the action entry, the reference library, every schema and every rule page, and no development file', () => {
    for (const file of [
      'dist/mcprely.js',
      'dist/cli-function.js',
      'dist/action.js',
      'dist/reference.js',
      'dist/race-worker.js',
      'dist/api.js',
      'dist/types/api/index.d.ts',
      'README.md',
      'LICENSE',
      'package.json',
    ])
      expect(paths.has(file), file).toBe(true);
    const rules = spawnSync(process.execPath, [join(REPO_ROOT, 'dist/mcprely.js'), 'rules'], { encoding: 'utf8' }).stdout;
    const ids = [...rules.matchAll(/^ {2}([a-z][a-z0-9-]+) /gm)].map((match) => match[1]!);
    expect(ids.length).toBeGreaterThan(50);
    for (const id of ids) expect(paths.has(`docs/rules/${id}.md`), id).toBe(true);
    for (const path of paths)
      expect(path, path).not.toMatch(
        /^(src|test|scripts|bench|node_modules|\.changeset|\.github|\.ci|\.scratch|coverage|evidence)\/|^(tsconfig|vitest|biome)\b/,
      );
  });

  it('holds every file of the package that the README and its guides name, and every guide it links', () => {
    const guides = readdirSync(join(REPO_ROOT, 'docs/guides')).map((name) => `docs/guides/${name}`);
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    for (const linked of readme.matchAll(/\]\((docs\/guides\/[^)]+)\)/g)) expect(paths.has(linked[1]!), linked[1]).toBe(true);
    const text = [readme, ...guides.map((guide) => readFileSync(join(REPO_ROOT, guide), 'utf8'))].join('\n');
    const named = new Set([...text.matchAll(/`((?:schemas|docs|fixtures\/examples|rules)\/[A-Za-z0-9_./-]*)`/g)].map((match) => match[1]!));
    expect(named.size).toBeGreaterThan(5);
    for (const path of named) {
      const present = path.endsWith('/') ? [...paths].some((file) => file.startsWith(path)) : paths.has(path);
      expect(present, path).toBe(true);
    }
    for (const example of [
      'fixtures/examples/billing.yaml',
      'fixtures/examples/billing-2025.yaml',
      'fixtures/examples/flawed/no-max-timeout.yaml',
    ])
      expect(paths.has(example), example).toBe(true);
  });

  it('allows the install script of every dependency that has one, and only those', () => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean> };
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(Object.keys(manifest.allowScripts).sort()).toEqual([...new Set(withScripts)].sort());
    expect(manifest.allowScripts['better-sqlite3']).toBe(true);
  });

  it('runs from the unpacked tarball: lint, rules, verify, and links that reach its own rule pages', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-pack-'));
    const real = pack(['--pack-destination', dir]);
    expect(spawnSync('tar', ['xzf', join(dir, real.filename), '-C', dir]).status).toBe(0);
    const root = join(dir, 'package');
    // The dependencies as an install would provide them.
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(root, 'dist/mcprely.js'), ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect(cli('lint', 'fixtures/examples/billing.yaml').status).toBe(0);
    mkdirSync(join(root, 'report'));
    const flawed = cli('lint', 'fixtures/examples/flawed', '-f', 'markdown', '-o', 'report/lint.md');
    expect(flawed.status).toBe(1);
    const link = /\]\(([^)]+deadline-max-required\.md)\)/.exec(readFileSync(join(root, 'report/lint.md'), 'utf8'))?.[1];
    expect(link).toBe('../docs/rules/deadline-max-required.md');
    expect(cli('rules', 'manifest-syntax').stdout).toContain('# manifest-syntax');
    const verify = cli('verify', 'fixtures/examples/flawed/no-max-timeout.yaml', '-f', 'json');
    expect(verify.status).toBe(1);
    expect(JSON.parse(verify.stdout).summary.failed).toBeGreaterThan(0);

    // The Node API, as a project that depends on mcprely imports it: it runs, and a consumer file type-checks.
    const consumer = join(dir, 'consumer');
    mkdirSync(join(consumer, 'node_modules'), { recursive: true });
    symlinkSync(root, join(consumer, 'node_modules', 'mcprely'), 'dir');
    writeFileSync(
      join(consumer, 'use.mjs'),
      "import { lint } from 'mcprely';\n" +
        `const outcome = await lint({ paths: ['${join(root, 'fixtures/examples/flawed/no-max-timeout.yaml')}'] });\n` +
        'console.log(JSON.stringify(outcome.ok && [outcome.exitCode, outcome.result.files[0].findings.map((f) => f.ruleId)]));\n',
    );
    const used = spawnSync(process.execPath, ['use.mjs'], { cwd: consumer, encoding: 'utf8', timeout: 120_000 });
    expect(used.stdout.trim(), used.stderr).toBe('[1,["deadline-max-required"]]');
    writeFileSync(
      join(consumer, 'use.mts'),
      "import { lint, type LintOutcome } from 'mcprely';\n" +
        "const outcome: LintOutcome = await lint({ paths: ['a.yaml'], failSeverity: 'warn' });\n" +
        'export const errors: number = outcome.ok ? outcome.result.summary.errors : 0;\n' +
        '// @ts-expect-error: paths are strings\n' +
        'await lint({ paths: [1] });\n',
    );
    const tsc = spawnSync(
      process.execPath,
      [
        join(REPO_ROOT, 'node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--target',
        'es2022',
        '--typeRoots',
        join(REPO_ROOT, 'node_modules/@types'),
        '--types',
        'node',
        'use.mts',
      ],
      { cwd: consumer, encoding: 'utf8', timeout: 120_000 },
    );
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
  });
});
