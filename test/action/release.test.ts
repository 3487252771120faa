import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/run-cli.js';
import { FakeGitHub } from './fake-github.js';
import { commentsOn, example, push, runAction, TOKEN, workspace } from './simulated-actions.js';
import { RUNTIME_DEPENDENCIES } from '../../scripts/release-tree.mjs';

const VERSION: string = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version;
const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 'release',
  GIT_AUTHOR_EMAIL: 'release@example.test',
  GIT_COMMITTER_NAME: 'release',
  GIT_COMMITTER_EMAIL: 'release@example.test',
};

/**
 * The tree a release tag holds, run as `uses: owner/mcprely@vX` runs it: copied into an empty folder outside this
 * checkout (so no node_modules of ours is in reach), its install step from action.yml run as written, then both
 * phases against the loopback GitHub API. With MCPRELY_RELEASE_INSTALL=npm (scripts/release-check.mjs in CI) the
 * production packages are installed by `npm ci --omit=dev`, as on a runner; otherwise they are the same packages
 * (the release lock's entries) copied from this checkout's node_modules.
 */
describe('a release tree: the action runs from it as it is, with production packages only', () => {
  const github = new FakeGitHub(TOKEN);
  let tree = '';
  let tagged = '';
  beforeAll(async () => {
    await github.start();
    // Tagged as the release workflow tags it (in a repository of its own, not pushed), then the tag's files alone.
    const work = mkdtempSync(join(tmpdir(), 'mcprely-release-'));
    const repository = join(work, 'repository');
    const git = (...args: string[]) => {
      const run = spawnSync('git', args, { cwd: repository, encoding: 'utf8', env: { ...process.env, ...GIT_IDENTITY } });
      expect(run.status, run.stderr).toBe(0);
      return run.stdout;
    };
    mkdirSync(repository);
    git('init', '--quiet');
    git('commit', '--quiet', '--allow-empty', '--message', 'the commit being released');
    const tagging = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts/release-tag.mjs'), '--no-push'], {
      cwd: repository,
      encoding: 'utf8',
      env: { ...process.env, ...GIT_IDENTITY },
    });
    expect(tagging.status, tagging.stderr).toBe(0);
    tagged = tagging.stdout;
    tree = join(work, 'mcprely');
    mkdirSync(tree);
    const archive = spawnSync('git', ['archive', '--format=tar', `v${VERSION}`], { cwd: repository, maxBuffer: 256 * 1024 * 1024 });
    expect(archive.status).toBe(0);
    expect(spawnSync('tar', ['-x', '-C', tree], { input: archive.stdout }).status).toBe(0);
    expect(git('rev-parse', `v${VERSION.split('.')[0]}^{commit}`)).toBe(git('rev-parse', `v${VERSION}^{commit}`));
    expect(git('rev-parse', `v${VERSION}^{commit}^`)).toBe(git('rev-parse', 'HEAD'));
  }, 120_000);
  afterAll(() => github.stop());

  it('the tag holds the built action and names only the runtime dependencies, no development package', () => {
    expect(tagged).toMatch(new RegExp(`^New tag: v${VERSION.replace(/\./g, '\\.')} \\(and v\\d+\\) at [0-9a-f]{40}, not pushed$`, 'm'));
    expect(existsSync(join(tree, 'dist/action.js'))).toBe(true);
    expect(existsSync(join(tree, 'action.yml'))).toBe(true);
    expect(existsSync(join(tree, 'docs/rules/deadline-max-required.md'))).toBe(true);
    expect(existsSync(join(tree, 'node_modules'))).toBe(false);
    const pkg = JSON.parse(readFileSync(join(tree, 'package.json'), 'utf8'));
    expect(Object.keys(pkg.dependencies).sort()).toEqual([...RUNTIME_DEPENDENCIES].sort());
    expect(pkg.devDependencies).toBeUndefined();
    expect(pkg.scripts).toBeUndefined();
    const lock = JSON.parse(readFileSync(join(tree, 'package-lock.json'), 'utf8'));
    const names = Object.keys(lock.packages).filter((key) => key !== '');
    for (const tool of ['vitest', 'esbuild', '@biomejs/biome', 'playwright-core', '@stoplight/spectral-cli', 'typescript'])
      expect(names, tool).not.toContain(`node_modules/${tool}`);
    expect(names).toContain('node_modules/better-sqlite3');
    expect(names).toContain('node_modules/bindings');
    // Every package the release lock names is one this checkout's lock holds, at the same version.
    const ours = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')).packages;
    for (const name of names) expect(lock.packages[name].version, name).toBe(ours[name].version);
    // Nothing up from the tree could lend it a package.
    let folder = dirname(tree);
    while (folder !== parse(folder).root) {
      expect(existsSync(join(folder, 'node_modules')), folder).toBe(false);
      folder = dirname(folder);
    }
  });

  it('without evidence it needs no package at all; with evidence its install step gives it better-sqlite3; check and comment run end to end', {
    timeout: 600_000,
  }, async () => {
    const install = installStep();
    const ws = workspace({ 'billing.yaml': example('billing.yaml'), 'no max timeout.yaml': example('flawed/no-max-timeout.yaml') });
    const action = join(tree, 'dist/action.js');

    // Evidence off: the install step installs nothing, and the check runs from dist/ alone.
    expect(runInstall(install, 'false').status).toBe(0);
    expect(existsSync(join(tree, 'node_modules'))).toBe(false);
    github.comments.clear();
    const started = performance.now();
    let firstFinding: number | undefined;
    const manifests = 'mcp/billing.yaml\nmcp/no max timeout.yaml';
    const bare = await runAction('check', ws, github, { manifests, name: 'release', evidence: 'false' }, {}, action, (chunk) => {
      if (firstFinding === undefined && chunk.includes('::error file=')) firstFinding = performance.now() - started;
    });
    expect(bare.status, bare.stderr).toBe(0);
    expect(bare.outputs).toMatchObject({ 'exit-code': '1', files: '2' });
    expect(bare.stdout).toMatch(/^::error file=mcp\/no max timeout\.yaml,line=\d+/m);
    expect(firstFinding).toBeDefined();
    console.log(`release tree, no evidence: the first finding ${Math.round(firstFinding!)} ms after the step started`);
    expect(firstFinding!).toBeLessThan(15_000);

    // Evidence on: production packages (npm ci --omit=dev, or the same packages copied), then both phases.
    if (process.env['MCPRELY_RELEASE_INSTALL'] === 'npm') {
      const installed = runInstall(install, 'true');
      expect(installed.status, installed.stderr).toBe(0);
    } else {
      const lock = JSON.parse(readFileSync(join(tree, 'package-lock.json'), 'utf8'));
      for (const key of Object.keys(lock.packages).filter((name) => name !== ''))
        cpSync(join(REPO_ROOT, key), join(tree, key), { recursive: true, dereference: true });
      expect(runInstall(install, 'true').status).toBe(0);
    }
    expect(readdirSync(join(tree, 'node_modules')).sort()).toContain('better-sqlite3');
    const full = await push(ws, github, { manifests, name: 'release' }, action);
    expect(full.check.outputs).toMatchObject({ 'exit-code': '1', files: '2', 'artifact-name': 'mcprely-evidence-release' });
    const bundles = readdirSync(full.check.outputs['evidence-dir']!).sort();
    expect(bundles).toEqual(['mcp__billing.yaml', 'mcp__no%20max%20timeout.yaml']);
    for (const bundle of bundles) expect(existsSync(join(full.check.outputs['evidence-dir']!, bundle, 'index.html')), bundle).toBe(true);
    expect(full.comment!.stdout).toContain('Commented');
    const posted = commentsOn(github).at(-1)!;
    expect(posted.body).toContain('<!-- mcprely:comment set=release -->');
    // Rule links point at the action's own repository and ref, where the release holds docs/rules/.
    expect(posted.body).toContain('https://github.com/acme-tools/mcprely/blob/v1/docs/rules/deadline-max-required.md');
  });

  /** The `run:` of action.yml's install step, as the runner runs it (bash, in the action's folder). */
  function installStep(): string {
    const text = readFileSync(join(tree, 'action.yml'), 'utf8');
    const step = /- name: Install mcprely\n[\s\S]*?run: \|\n((?: {8}.*\n|\n)+)/.exec(text);
    expect(step, 'the install step of action.yml').not.toBeNull();
    return step![1]!.replace(/^ {8}/gm, '');
  }

  function runInstall(script: string, evidence: string) {
    const file = join(dirname(tree), 'install-step.sh');
    writeFileSync(file, script);
    return spawnSync('bash', ['-e', file], {
      cwd: tree,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', MCPRELY_EVIDENCE: evidence },
      encoding: 'utf8',
      timeout: 600_000,
    });
  }
});
