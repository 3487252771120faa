import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvDraft04Module from 'ajv-draft-04';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, showsStackTrace } from '../helpers/run-cli.js';
import { FakeGitHub } from './fake-github.js';
import { commentsOn, example, push, REPOSITORY, runAction, TOKEN, workspace } from './simulated-actions.js';

const LIMIT = 65_536;

type AjvClass = new (
  options: Record<string, unknown>,
) => { compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown[] | null } };
const AjvDraft04 = (AjvDraft04Module as unknown as { default: AjvClass }).default;
const validateSarif = new AjvDraft04({ unicodeRegExp: false, validateFormats: false, allErrors: true, strict: false }).compile(
  JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')),
);

describe('the GitHub Action under a simulated Actions environment, against a loopback GitHub API', () => {
  const github = new FakeGitHub(TOKEN);
  beforeAll(() => github.start());
  afterAll(() => github.stop());

  it('a clean manifest set: passes, uploads clean SARIF, writes the summary and the evidence, and comments once', async () => {
    const ws = workspace({ 'billing.yaml': example('billing.yaml'), 'billing-2025.yaml': example('billing-2025.yaml') });
    github.requests.length = 0;
    const { check, comment } = await push(ws, github, { manifests: 'mcp', name: 'billing' });
    expect(check.outputs).toMatchObject({ 'exit-code': '0', errors: '0', warnings: '0', files: '2', category: 'mcprely/billing' });
    expect(check.stdout).not.toMatch(/^::(error|warning)/m);
    const sarif = JSON.parse(readFileSync(check.outputs['sarif-file']!, 'utf8'));
    expect(validateSarif(sarif)).toBe(true);
    expect(sarif.runs[0].results).toEqual([]);
    expect(sarif.runs[0].automationDetails.id).toBe('mcprely/billing/');
    expect(sarif.runs[0].originalUriBaseIds['%SRCROOT%'].uri).toBe(`file://${ws.repo}/`);
    // One evidence bundle per manifest, named by its path in the repository.
    const bundles = readdirSync(check.outputs['evidence-dir']!).sort();
    expect(bundles).toEqual(['mcp__billing-2025.yaml', 'mcp__billing.yaml']);
    for (const bundle of bundles) expect(existsSync(join(check.outputs['evidence-dir']!, bundle, 'index.json'))).toBe(true);
    expect(check.outputs['artifact-name']).toBe('mcprely-evidence-billing');
    const summary = readFileSync(ws.summary, 'utf8');
    expect(summary).toContain('### ✅ mcprely · `billing`: ✅ no findings in 2 files');
    expect(summary).toContain('| `mcp/billing.yaml` | ✅ production-ready | 58 of 58 passed |');
    expect(comment!.stdout).toMatch(/^Commented: https:\/\/github\.com\/acme\/billing-mcp\/pull\/42#issuecomment-\d+$/m);
    // Who the token writes as first (GITHUB_TOKEN: GET /user is refused, GraphQL's viewer answers), then the comments.
    expect(github.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /user',
      'POST /graphql',
      'GET /repos/acme/billing-mcp/issues/42/comments?per_page=100&page=1',
      'POST /repos/acme/billing-mcp/issues/42/comments',
    ]);
    expect(github.requests.every((request) => request.authorization === `Bearer ${TOKEN}`)).toBe(true);
    const posted = github.requests[3]!.body!.body!;
    expect(posted.startsWith('<!-- mcprely:comment set=billing -->\n')).toBe(true);
    expect(posted).toContain('[The evidence bundles](https://github.com/acme/billing-mcp/actions/runs/9876543210/artifacts/111)');
  });

  it('a set with findings: the job will fail, SARIF is still written, annotations name each finding, one comment created then updated', async () => {
    const flawed = readdirSync(join(REPO_ROOT, 'fixtures/examples/flawed')).filter((name) => name.endsWith('.yaml'));
    const ws = workspace(Object.fromEntries(flawed.map((name) => [name, example(`flawed/${name}`)])));
    writeFileSync(join(ws.repo, 'mcp/billing.yaml'), example('billing.yaml'));
    github.comments.clear();
    // Another tool's comment and another manifest set's comment stay as they are.
    const other = github.seed(REPOSITORY, 42, 'LGTM, but see the linter');
    const otherSet = github.seed(REPOSITORY, 42, '<!-- mcprely:comment set=billing -->\nthe billing set');
    github.requests.length = 0;
    const first = await push(ws, github, { manifests: 'mcp/*.yaml', name: 'flawed examples', evidence: 'false' });
    expect(first.check.outputs['exit-code']).toBe('1');
    const errors = Number(first.check.outputs['errors']);
    expect(errors).toBeGreaterThanOrEqual(flawed.length);
    const annotations = first.check.stdout.split('\n').filter((line) => line.startsWith('::error file=mcp/'));
    expect(annotations).toHaveLength(errors);
    const sarif = JSON.parse(readFileSync(first.check.outputs['sarif-file']!, 'utf8'));
    expect(validateSarif(sarif)).toBe(true);
    expect(sarif.runs[0].results.filter((result: { level: string }) => result.level === 'error')).toHaveLength(errors);
    for (const result of sarif.runs[0].results) expect(result.locations[0].physicalLocation.artifactLocation.uri).toMatch(/^mcp\//);
    const linked = sarif.runs[0].tool.driver.rules.find((rule: { id: string }) => rule.id === 'deadline-max-required');
    expect(linked.helpUri).toBe('https://github.com/acme-tools/mcprely/blob/v1/docs/rules/deadline-max-required.md');
    expect(first.check.outputs['evidence-dir']).toBeUndefined();
    expect(readFileSync(ws.summary, 'utf8')).toContain('### ❌ mcprely · `flawed examples`');

    const created = commentsOn(github).find((comment) => comment.body.startsWith('<!-- mcprely:comment set=flawed-examples-'))!;
    expect(created).toBeDefined();
    expect(created.body).toContain('This fails the check (it fails on findings at error or above).');
    expect(created.body).toContain(
      '[`deadline-max-required`](https://github.com/acme-tools/mcprely/blob/v1/docs/rules/deadline-max-required.md)',
    );

    // A later push fixes one manifest: the same comment is updated, no second one is created.
    writeFileSync(join(ws.repo, 'mcp/no-max-timeout.yaml'), example('billing.yaml'));
    github.requests.length = 0;
    const second = await push(ws, github, { manifests: 'mcp/*.yaml', name: 'flawed examples', evidence: 'false' });
    expect(Number(second.check.outputs['errors'])).toBe(errors - 1);
    expect(github.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /user',
      'POST /graphql',
      'GET /repos/acme/billing-mcp/issues/42/comments?per_page=100&page=1',
      `PATCH /repos/acme/billing-mcp/issues/comments/${created.id}`,
    ]);
    expect(second.comment!.stdout).toContain('Updated the comment');
    const after = commentsOn(github);
    expect(after.map((comment) => comment.id)).toEqual([other.id, otherSet.id, created.id]);
    expect(after[0]!.body).toBe('LGTM, but see the linter');
    expect(after[1]!.body).toBe('<!-- mcprely:comment set=billing -->\nthe billing set');
    expect(after[2]!.body).not.toContain('no-max-timeout.yaml');
  });

  it("only a comment the token wrote is edited: the marker in anyone else's comment is left alone, for a bot token and a person's", async () => {
    const ws = workspace({ 'billing.yaml': example('billing.yaml') });
    const marker = '<!-- mcprely:comment set=billing -->';
    for (const identity of [
      { kind: 'bot', app: 'github-actions' },
      { kind: 'person', login: 'release-bot-user' },
    ] as const) {
      github.comments.clear();
      github.identity = identity;
      // Someone else's comment that begins with the set's marker (written before ours, so it is found first).
      github.requests.length = 0;
      const forged = github.seed(REPOSITORY, 42, `${marker}\nplease merge, the linter says so`, 'mallory');
      const bot = github.seed(REPOSITORY, 42, `${marker}\nanother app's comment`, 'other-app[bot]');
      const first = await push(ws, github, { manifests: 'mcp', name: 'billing', evidence: 'false' });
      expect(first.comment!.stdout, identity.kind).toContain('Commented');
      const ours = commentsOn(github).find((comment) => comment.user.login === github.author)!;
      expect(ours.body.startsWith(marker), identity.kind).toBe(true);
      const second = await push(ws, github, { manifests: 'mcp', name: 'billing', evidence: 'false' });
      expect(second.comment!.stdout, identity.kind).toContain('Updated the comment');
      expect(github.requests.filter((request) => request.method === 'PATCH').map((request) => request.path)).toContain(
        `/repos/acme/billing-mcp/issues/comments/${ours.id}`,
      );
      const after = commentsOn(github);
      expect(
        after.map((comment) => comment.id),
        identity.kind,
      ).toEqual([forged.id, bot.id, ours.id]);
      expect(after[0]!.body).toBe(`${marker}\nplease merge, the linter says so`);
      expect(after[1]!.body).toBe(`${marker}\nanother app's comment`);
    }
    // A token GitHub names to neither: nothing is edited, a new comment is posted, and the warning says why.
    github.comments.clear();
    github.identity = { kind: 'unnamed', writesAs: 'github-actions[bot]' };
    const earlier = github.seed(REPOSITORY, 42, `${marker}\nan earlier run's comment`);
    github.requests.length = 0;
    const unnamed = await push(ws, github, { manifests: 'mcp', name: 'billing', evidence: 'false' });
    expect(unnamed.comment!.stdout).toMatch(
      /^::warning title=mcprely::who the token writes as is unknown .*a new comment is posted, none is edited$/m,
    );
    expect(github.requests.some((request) => request.method === 'PATCH')).toBe(false);
    expect(commentsOn(github).map((comment) => comment.id)[0]).toBe(earlier.id);
    expect(commentsOn(github)).toHaveLength(2);
    github.identity = { kind: 'bot', app: 'github-actions' };
  });

  it('a set whose comment would pass 65 536 characters: the comment is cut with a notice, the summary keeps every finding', async () => {
    // 400 operations, each without a maximum timeout: hundreds of findings with long messages.
    const operations = Array.from(
      { length: 400 },
      (_, index) =>
        `  - name: export_report_${String(index).padStart(3, '0')}_with_a_long_descriptive_name\n    method: tools/call\n    sideEffect: none\n` +
        '    timeouts: { idleMs: 30000, maxMs: null }\n    progress: { emits: true, minIntervalMs: 1000 }\n',
    );
    const flawed = example('flawed/no-max-timeout.yaml');
    const head = flawed.slice(0, flawed.indexOf('\noperations:'));
    const ws = workspace({ 'huge.yaml': `${head}\noperations:\n${operations.join('')}` });
    github.comments.clear();
    github.requests.length = 0;
    const { check } = await push(ws, github, { manifests: 'mcp/huge.yaml', name: 'huge', evidence: 'false' });
    const total = Number(check.outputs['errors']) + Number(check.outputs['warnings']) + Number(check.outputs['infos']);
    expect(total, check.stdout.slice(0, 2000)).toBeGreaterThan(300);
    const posted = github.requests.find((request) => request.method === 'POST' && request.path.endsWith('/comments'))!.body!.body!;
    expect(posted.length).toBeLessThanOrEqual(LIMIT);
    expect(posted.length).toBeGreaterThan(LIMIT - 3000);
    const rows = posted.split('\n').filter((line) => /^\| (🔴|🟡|🔵)/.test(line)).length;
    expect(rows).toBeLessThan(total);
    expect(posted).toContain(`**${total - rows} more findings not shown**: this report is cut to GitHub's 65,536-character limit.`);
    expect(posted).toContain('[The evidence bundles]');
    expect(posted.trimEnd().endsWith('updated on every push</sub>')).toBe(true);
    const summaryRows = readFileSync(ws.summary, 'utf8')
      .split('\n')
      .filter((line) => /^\| (🔴|🟡|🔵)/.test(line)).length;
    expect(summaryRows).toBe(total);
    expect(commentsOn(github)).toHaveLength(1);
  });

  it("a fork's read-only token: the comment is refused with a warning, and the check's verdict stands", async () => {
    const ws = workspace({ 'no-max.yaml': example('flawed/no-max-timeout.yaml') });
    github.comments.clear();
    github.refuse = true;
    try {
      const { check, comment } = await push(ws, github, { manifests: 'mcp', name: 'fork', evidence: 'false' });
      expect(check.outputs['exit-code']).toBe('1');
      expect(comment!.stdout).toMatch(
        /^::warning title=mcprely::the pull-request comment could not be posted: .*HTTP 403 .*pull-requests: write/m,
      );
      expect(commentsOn(github)).toHaveLength(0);
    } finally {
      github.refuse = false;
    }
  });

  it('fail-severity and unusable files: warn fails on warnings, none passes findings, a missing manifest fails whatever the severity', async () => {
    const warnOnly = example('billing.yaml').replace('maxAttempts: 3\n', 'maxAttempts: 11\n');
    const ws = workspace({ 'warn.yaml': warnOnly });
    const atError = await runAction('check', ws, github, { manifests: 'mcp', comment: 'false', evidence: 'false' });
    const atWarn = await runAction('check', ws, github, { manifests: 'mcp', 'fail-severity': 'warn', comment: 'false', evidence: 'false' });
    expect(Number(atError.outputs['warnings'])).toBeGreaterThan(0);
    expect(atError.outputs['errors']).toBe('0');
    expect(atError.outputs['exit-code']).toBe('0');
    expect(atWarn.outputs['exit-code']).toBe('1');
    const flawed = workspace({ 'no-max.yaml': example('flawed/no-max-timeout.yaml') });
    const none = await runAction('check', flawed, github, {
      manifests: 'mcp',
      'fail-severity': 'none',
      comment: 'false',
      evidence: 'false',
    });
    expect(none.outputs['exit-code']).toBe('0');
    const missing = await runAction('check', flawed, github, { manifests: 'mcp/nowhere.yaml', 'fail-severity': 'none', evidence: 'false' });
    expect(missing.outputs['exit-code']).toBe('2');
    expect(missing.stdout).toMatch(/^::error file=mcp\/nowhere\.yaml,title=mcprely manifest-file::No file exists at this path/m);
    const bad = await runAction('check', flawed, github, { manifests: 'mcp', 'fail-severity': 'fatal' });
    expect(bad.status).toBe(2);
    expect(bad.stdout).toMatch(/^::error title=mcprely action::input fail-severity is "fatal"; give error, warn, info or none$/m);
    expect(showsStackTrace(bad.stdout + bad.stderr)).toBe(false);
  });

  it('paths with spaces, quotes and unicode: one per line, as written; several on one line is named as the mistake', async () => {
    const ws = workspace({});
    const folder = join(ws.repo, 'my manifests');
    mkdirSync(join(folder, 'drafts (old)'), { recursive: true });
    writeFileSync(join(folder, 'billing "v2".yaml'), example('billing.yaml'));
    writeFileSync(join(folder, 'facturación ✓.yaml'), example('flawed/no-max-timeout.yaml'));
    writeFileSync(join(folder, 'drafts (old)', 'skip me.yaml'), 'not: [a manifest');
    const { check } = await push(ws, github, {
      manifests: '  my manifests/  \n# a comment line\n\n',
      ignore: 'my manifests/drafts (old)/skip me.yaml',
      evidence: 'false',
      comment: 'false',
    });
    expect(check.outputs).toMatchObject({ files: '2', 'exit-code': '1' });
    const annotated = new Set(
      check.stdout
        .split('\n')
        .filter((line) => line.startsWith('::error file='))
        .map((line) => /^::error file=([^,]*),/.exec(line)![1]),
    );
    expect([...annotated]).toEqual(['my manifests/facturación ✓.yaml']);
    expect(readFileSync(check.outputs['sarif-file']!, 'utf8')).toContain('my%20manifests/facturaci%C3%B3n%20%E2%9C%93.yaml');

    // A quoted path keeps its quotes: they are part of the name (as in actions/upload-artifact's path).
    const quoted = await push(ws, github, { manifests: 'my manifests/billing "v2".yaml', evidence: 'false', comment: 'false' });
    expect(quoted.check.outputs).toMatchObject({ files: '1', 'exit-code': '0' });
    const stripped = await runAction('check', ws, github, {
      manifests: '"my manifests/billing.yaml"',
      evidence: 'false',
      comment: 'false',
    });
    expect(stripped.outputs['exit-code']).toBe('2');

    // Two paths on one line (what an older mcprely split at spaces) is an input error that says so, not a missing file.
    writeFileSync(join(ws.repo, 'a.yaml'), example('billing.yaml'));
    writeFileSync(join(ws.repo, 'b.yaml'), example('billing.yaml'));
    const twoOnOne = await runAction('check', ws, github, { manifests: 'a.yaml b.yaml', evidence: 'false', comment: 'false' });
    expect(twoOnOne.status).toBe(2);
    expect(twoOnOne.stdout).toMatch(
      /^::error title=mcprely action::input manifests: "a\.yaml b\.yaml" is not a path, but each word of it is; write one path or glob per line$/m,
    );
    expect(showsStackTrace(twoOnOne.stdout + twoOnOne.stderr)).toBe(false);
  });

  it('outside a pull request it writes no comment file, and the comment phase does nothing', async () => {
    const ws = workspace({ 'billing.yaml': example('billing.yaml') });
    const pushEvent = join(ws.root, 'push.json');
    writeFileSync(pushEvent, JSON.stringify({ ref: 'refs/heads/main', repository: { full_name: REPOSITORY } }));
    github.requests.length = 0;
    const check = await runAction(
      'check',
      ws,
      github,
      { manifests: 'mcp', evidence: 'false' },
      { GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: pushEvent },
    );
    expect(check.outputs['comment-file']).toBeUndefined();
    expect(check.outputs['sarif-file']).toBeDefined();
    expect(github.requests).toHaveLength(0);
  });
});

describe('action.yml', () => {
  const text = readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8');

  it('validates against the published schema for action metadata, and so does the dogfood workflow', async () => {
    const { validateAction, validateWorkflow } = await import('@action-validator/core');
    expect(validateAction(text).errors).toEqual([]);
    const workflow = readFileSync(join(REPO_ROOT, '.github/workflows/mcprely.yml'), 'utf8');
    expect(validateWorkflow(workflow).errors).toEqual([]);
    expect(workflow).toMatch(/uses: \.\/\n/);
    expect(workflow).toContain('security-events: write');
    // The release workflow: checked, then tagged by the script that makes the release tree.
    const release = readFileSync(join(REPO_ROOT, '.github/workflows/release.yml'), 'utf8');
    expect(validateWorkflow(release).errors).toEqual([]);
    expect(release).toContain('run: node scripts/release-check.mjs');
    expect(release).toContain('publish: node scripts/release-tag.mjs');
    // The schema is not asleep: a misspelt key is refused.
    expect(validateAction(text.replace('continue-on-error: true', 'continue-on-eror: true')).errors.length).toBeGreaterThan(0);
  });

  it('hands every input to the entry point, and uploads SARIF and the artifact even when the check fails the job', async () => {
    const { load } = await import('js-yaml');
    const action = load(text) as {
      inputs: Record<string, { default?: string }>;
      runs: {
        using: string;
        steps: { id?: string; if?: string; uses?: string; env?: Record<string, string>; 'continue-on-error'?: boolean; run?: string }[];
      };
    };
    expect(action.runs.using).toBe('composite');
    const check = action.runs.steps.find((step) => step.id === 'check')!;
    for (const input of Object.keys(action.inputs)) {
      if (input === 'working-directory' || input === 'github-token') continue;
      expect(check.env![`MCPRELY_${input.toUpperCase().replace(/-/g, '_')}`], input).toBe(`\${{ inputs.${input} }}`);
    }
    const sarif = action.runs.steps.find((step) => step.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
    expect(sarif.if).toMatch(/^always\(\) && /);
    expect(sarif['continue-on-error']).toBe(true);
    expect(action.runs.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'))!.if).toMatch(/^always\(\) && /);
    const last = action.runs.steps.at(-1)!;
    expect(last.if).toBe('always()');
    expect(last.run).toContain('exit "$EXIT_CODE"');
    expect(action.runs.steps.indexOf(sarif)).toBeLessThan(action.runs.steps.length - 1);
  });
});
