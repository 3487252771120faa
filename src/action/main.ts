import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { lint } from '../api/lint.js';
import { toSlashes } from '../workspace/load-settings.js';
import type { LintResult } from '../lint/lint-result.js';
import { escapeData, formatGithub } from '../report/github.js';
import { formatSarif } from '../report/sarif.js';
import type { RuleDocsBase } from '../report/report-context.js';
import { displayText } from '../text/display-text.js';
import { pathSegment } from '../text/path-segment.js';
import { appendSummary, InputError, MAX_SUMMARY_CHARACTERS, readInputs, setOutputs, severalOnOneLine, slugOf } from './action-env.js';
import { GitHubApi, GitHubApiError, writtenBy } from './github-api.js';
import { commentMarker, type EvidenceLine, MAX_COMMENT_CHARACTERS, renderReport, withArtifactLine } from './pr-comment.js';

declare const MCPRELY_VERSION: string;

/**
 * The GitHub Action's entry point (action.yml runs it twice). `check` lints the manifest set, prints the
 * annotations, writes the SARIF file, the job summary, the evidence bundles and the comment's body, and sets
 * the step outputs (`exit-code` is what the job's last step exits with, so SARIF and the artifact are uploaded
 * first); it exits 0 unless it could not run. `comment` creates or updates the set's one pull-request comment.
 */
export async function main(phase: string | undefined, env: NodeJS.ProcessEnv): Promise<number> {
  try {
    if (phase === 'check') return await check(env);
    if (phase === 'comment') return await comment(env);
    process.stderr.write(`usage: action.js check|comment (not ${displayText(String(phase))})\n`);
    return 2;
  } catch (error) {
    if (error instanceof InputError) {
      process.stdout.write(`::error title=mcprely action::${escapeData(error.message)}\n`);
      return 2;
    }
    throw error;
  }
}

async function check(env: NodeJS.ProcessEnv): Promise<number> {
  const inputs = readInputs(env);
  const cwd = process.cwd();
  const workspace = resolve(env['GITHUB_WORKSPACE'] || cwd);
  const slug = slugOf(inputs.name);
  const folder = resolve(env['RUNNER_TEMP'] || tmpdir(), `mcprely-${slug}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });

  const exists = (path: string) => existsSync(resolve(cwd, path));
  for (const [input, entries] of [
    ['manifests', inputs.manifests],
    ['ignore', inputs.ignorePatterns],
  ] as const)
    for (const entry of severalOnOneLine(entries, exists))
      throw new InputError(`input ${input}: "${entry}" is not a path, but each word of it is; write one path or glob per line`);
  const run = await lint({
    paths: inputs.manifests,
    ...(inputs.config === undefined ? {} : { config: inputs.config }),
    ignorePatterns: inputs.ignorePatterns,
    cwd,
    ...(inputs.failSeverity === 'none' ? {} : { failSeverity: inputs.failSeverity }),
  });
  if (!run.ok) {
    process.stdout.write(`::error title=mcprely action::${escapeData(run.problem.trim())}\n`);
    setOutputs(env, { 'exit-code': 2 });
    return 0;
  }
  for (const note of run.notes) process.stdout.write(`::notice title=mcprely::${escapeData(note)}\n`);
  // Annotations and SARIF name files relative to the repository root, wherever the step ran.
  const result = fromWorkspace(run.result, cwd, workspace);
  const ruleDocs = ruleDocsOf(env, workspace);
  const context = { rules: await run.rules(), ...(ruleDocs === undefined ? {} : { ruleDocs }) };
  const exitCode = inputs.failSeverity === 'none' ? (result.summary.inputErrors > 0 ? 2 : 0) : run.exitCode;

  process.stdout.write(formatGithub(result));
  const outputs: Record<string, string | number> = {
    'exit-code': exitCode,
    errors: result.summary.errors,
    warnings: result.summary.warnings,
    infos: result.summary.infos,
    files: result.summary.files,
    category: `mcprely/${slug}`,
  };
  if (inputs.sarif) {
    const sarifFile = join(folder, 'mcprely.sarif');
    writeFileSync(
      sarifFile,
      formatSarif(result, { toolVersion: MCPRELY_VERSION, ...context, category: `mcprely/${slug}`, sourceRoot: workspace }),
    );
    outputs['sarif-file'] = sarifFile;
  }

  const evidence: EvidenceLine[] = [];
  if (inputs.evidence) {
    // Loaded only here: the evidence runs fixtures on the reference ledger (better-sqlite3, the one native
    // dependency); a check without evidence runs from dist/ alone.
    const { evidence: writeEvidence } = await import('../api/evidence.js');
    const evidenceFolder = join(folder, 'evidence');
    for (const report of run.result.files) {
      if (report.inputError) continue;
      const shown = toSlashes(relative(workspace, resolve(cwd, report.file)));
      const written = await writeEvidence({
        manifest: resolve(cwd, report.file),
        output: join(evidenceFolder, pathSegment(shown.replace(/\//g, '__'))),
        ...(inputs.config === undefined ? {} : { config: inputs.config }),
      });
      if (written.ok) evidence.push({ manifest: shown, ...written.written });
    }
    if (evidence.length > 0) {
      outputs['evidence-dir'] = evidenceFolder;
      outputs['artifact-name'] = `mcprely-evidence-${slug}`;
    }
  }

  const failsOn = inputs.failSeverity === 'none' ? 'unusable files only' : `findings at ${inputs.failSeverity} or above`;
  const report = { name: inputs.name, result, context, evidence, failsOn, failed: exitCode !== 0, toolVersion: MCPRELY_VERSION };
  appendSummary(env, `${renderReport(report, MAX_SUMMARY_CHARACTERS, { artifactLine: artifactNote(outputs['artifact-name']) })}\n`);

  const pullRequest = pullRequestOf(env);
  if (inputs.comment && pullRequest !== undefined) {
    const commentFile = join(folder, 'comment.md');
    writeFileSync(commentFile, renderReport(report, MAX_COMMENT_CHARACTERS, { head: commentMarker(slug) }));
    outputs['comment-file'] = commentFile;
  }
  setOutputs(env, outputs);
  return 0;
}

/** Creates the set's comment on the pull request, or updates the one that carries its marker. */
async function comment(env: NodeJS.ProcessEnv): Promise<number> {
  const file = env['MCPRELY_COMMENT_FILE'];
  const pullRequest = pullRequestOf(env);
  if (file === undefined || file === '' || pullRequest === undefined) return 0;
  const body = withArtifactLine(readFileSync(file, 'utf8'), artifactLink(env));
  const marker = body.slice(0, body.indexOf('\n'));
  const token = env['GITHUB_TOKEN'] ?? '';
  if (token === '') {
    process.stdout.write('::warning title=mcprely::no github-token: the pull-request comment is not posted\n');
    return 0;
  }
  const api = new GitHubApi(env['GITHUB_API_URL'] || 'https://api.github.com', token, env['GITHUB_GRAPHQL_URL'] || undefined);
  try {
    // Only a comment this token wrote is ever edited: anyone can write the marker into a comment of their own.
    let login: string | undefined;
    try {
      login = await api.login();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      process.stdout.write(
        `::warning title=mcprely::who the token writes as is unknown (${escapeData(reason)}): a new comment is posted, none is edited\n`,
      );
    }
    let existing: number | undefined;
    if (login !== undefined)
      for await (const candidate of api.comments(pullRequest.repository, pullRequest.number))
        if (candidate.body.startsWith(marker) && writtenBy(candidate, login)) {
          existing = candidate.id;
          break;
        }
    const posted =
      existing === undefined
        ? await api.createComment(pullRequest.repository, pullRequest.number, body)
        : await api.updateComment(pullRequest.repository, existing, body);
    setOutputs(env, { 'comment-url': posted.html_url });
    process.stdout.write(`${existing === undefined ? 'Commented' : 'Updated the comment'}: ${displayText(posted.html_url)}\n`);
  } catch (error) {
    // The comment is a convenience; the verdict is the job's exit code. A fork's read-only token ends here.
    const reason = error instanceof GitHubApiError ? error.message : (error as Error).message;
    const hint =
      error instanceof GitHubApiError && (error.status === 403 || error.status === 404) ? ' (the token may lack pull-requests: write)' : '';
    process.stdout.write(`::warning title=mcprely::the pull-request comment could not be posted: ${escapeData(reason)}${hint}\n`);
  }
  return 0;
}

interface PullRequest {
  readonly repository: string;
  readonly number: number;
}

/** The pull request of a pull_request or pull_request_target event, read from its payload. */
function pullRequestOf(env: NodeJS.ProcessEnv): PullRequest | undefined {
  const path = env['GITHUB_EVENT_PATH'];
  if (path === undefined || path === '') return undefined;
  let payload: { pull_request?: { number?: unknown }; repository?: { full_name?: unknown } };
  try {
    payload = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  const number = payload.pull_request?.number;
  const repository = payload.repository?.full_name ?? env['GITHUB_REPOSITORY'];
  if (typeof number !== 'number' || !Number.isInteger(number) || typeof repository !== 'string' || !/^[\w.-]+\/[\w.-]+$/.test(repository))
    return undefined;
  return { repository, number };
}

/**
 * Rule pages at the action's own repository and ref when it runs as `uses: owner/mcprely@ref`, or in this
 * repository at the commit under test when it runs as `uses: ./` here; otherwise no links (a relative link
 * means nothing in a comment).
 */
function ruleDocsOf(env: NodeJS.ProcessEnv, workspace: string): RuleDocsBase | undefined {
  const server = (env['GITHUB_SERVER_URL'] || 'https://github.com').replace(/\/+$/, '');
  const repository = env['MCPRELY_ACTION_REPOSITORY'];
  const ref = env['MCPRELY_ACTION_REF'];
  if (repository && ref) return { base: `${server}/${repository}/blob/${encodeURIComponent(ref)}/docs/rules/`, absolute: true };
  const actionPath = env['MCPRELY_ACTION_PATH'];
  if (actionPath && env['GITHUB_REPOSITORY'] && env['GITHUB_SHA'] && resolve(actionPath) === workspace)
    return { base: `${server}/${env['GITHUB_REPOSITORY']}/blob/${env['GITHUB_SHA']}/docs/rules/`, absolute: true };
  return undefined;
}

function artifactNote(name: string | number | undefined): string {
  return name === undefined ? '' : `The evidence bundles are attached to this run as the artifact \`${name}\`.`;
}

/** The evidence artifact's address when it was uploaded, else the run's page. */
function artifactLink(env: NodeJS.ProcessEnv): string {
  const server = (env['GITHUB_SERVER_URL'] || 'https://github.com').replace(/\/+$/, '');
  const artifact = env['MCPRELY_ARTIFACT_URL'];
  if (artifact) return `📦 [The evidence bundles](${artifact}) (review, fixtures and transcripts of each manifest).`;
  if (env['GITHUB_REPOSITORY'] && env['GITHUB_RUN_ID'])
    return `[The workflow run](${server}/${env['GITHUB_REPOSITORY']}/actions/runs/${env['GITHUB_RUN_ID']}) has every annotation and the job summary.`;
  return '';
}

/** The lint result with each file named relative to the repository root (forward slashes). */
function fromWorkspace(result: LintResult, cwd: string, workspace: string): LintResult {
  if (cwd === workspace) return result;
  const rename = (file: string) => toSlashes(relative(workspace, resolve(cwd, file)));
  return {
    ...result,
    files: result.files.map((report) => ({
      ...report,
      file: rename(report.file),
      findings: report.findings.map((finding) => ({ ...finding, file: rename(finding.file) })),
    })),
  };
}
