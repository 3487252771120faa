import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { REPO_ROOT, showsStackTrace } from '../helpers/run-cli.js';
import type { FakeGitHub } from './fake-github.js';

/** The GitHub Actions runner, simulated: a checkout, the environment a step sees, and the action's two phases run in it. */
export const ACTION = join(REPO_ROOT, 'dist/action.js');
export const PAYLOAD = join(REPO_ROOT, 'test/action/pull_request.json');
export const TOKEN = 'ghs_test-token-0123456789';
export const REPOSITORY = 'acme/billing-mcp';

/** A checkout as the runner has it: the manifests under mcp/, plus GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and RUNNER_TEMP. */
export function workspace(manifests: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'mcprely-action-'));
  const repo = join(root, 'repo');
  mkdirSync(join(repo, 'mcp'), { recursive: true });
  for (const [name, text] of Object.entries(manifests)) writeFileSync(join(repo, 'mcp', name), text);
  mkdirSync(join(root, 'runner-temp'));
  return { root, repo, output: join(root, 'output.txt'), summary: join(root, 'summary.md'), temp: join(root, 'runner-temp') };
}

export type Workspace = ReturnType<typeof workspace>;
export const example = (path: string) => readFileSync(join(REPO_ROOT, 'fixtures/examples', path), 'utf8');

/** Runs a phase of the action's entry point as the composite step does, with only the Actions environment. */
export function runAction(
  phase: 'check' | 'comment',
  ws: Workspace,
  github: FakeGitHub,
  inputs: Record<string, string>,
  extra: Record<string, string> = {},
  /** The entry point: this checkout's build, or a release tree's. */
  action = ACTION,
  /** Called with each piece of standard output as it arrives (a timer for the first finding). */
  onStdout?: (chunk: string) => void,
) {
  writeFileSync(ws.output, '');
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? '',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: ws.repo,
    GITHUB_OUTPUT: ws.output,
    GITHUB_STEP_SUMMARY: ws.summary,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: PAYLOAD,
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_SHA: 'c0d0b0a0e0f0a1b2c3d4e5f60718293a4b5c6d7e',
    GITHUB_RUN_ID: '9876543210',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: github.url,
    RUNNER_TEMP: ws.temp,
    MCPRELY_ACTION_REPOSITORY: 'acme-tools/mcprely',
    MCPRELY_ACTION_REF: 'v1',
    MCPRELY_ACTION_PATH: REPO_ROOT,
    ...Object.fromEntries(Object.entries(inputs).map(([name, value]) => [`MCPRELY_${name.toUpperCase().replace(/-/g, '_')}`, value])),
    ...extra,
  };
  return new Promise<{ status: number | null; stdout: string; stderr: string; outputs: Record<string, string> }>((resolve) => {
    const child = spawn(process.execPath, [action, phase], { cwd: ws.repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      onStdout?.(String(chunk));
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr, outputs: readOutputs(ws.output) }));
  });
}

/** $GITHUB_OUTPUT as the runner reads it: `name<<DELIMITER`, the value's lines, the delimiter. */
export function readOutputs(file: string): Record<string, string> {
  const lines = readFileSync(file, 'utf8').split('\n');
  const outputs: Record<string, string> = {};
  for (let index = 0; index < lines.length; index++) {
    const match = /^([\w-]+)<<(.+)$/.exec(lines[index]!);
    if (match === null) continue;
    const value: string[] = [];
    while (lines[++index] !== match[2]) value.push(lines[index]!);
    outputs[match[1]!] = value.join('\n');
  }
  return outputs;
}

/** Both phases of one push: check, then (as action.yml does) comment with the check's comment file. */
export async function push(ws: Workspace, github: FakeGitHub, inputs: Record<string, string>, action = ACTION) {
  const check = await runAction('check', ws, github, inputs, {}, action);
  expect(check.status, check.stderr).toBe(0);
  expect(showsStackTrace(check.stdout + check.stderr)).toBe(false);
  const comment =
    check.outputs['comment-file'] === undefined
      ? undefined
      : await runAction(
          'comment',
          ws,
          github,
          {},
          {
            MCPRELY_COMMENT_FILE: check.outputs['comment-file'],
            MCPRELY_ARTIFACT_URL: 'https://github.com/acme/billing-mcp/actions/runs/9876543210/artifacts/111',
            GITHUB_TOKEN: TOKEN,
          },
          action,
        );
  if (comment !== undefined) expect(comment.status, comment.stderr).toBe(0);
  return { check, comment };
}

export const commentsOn = (github: FakeGitHub) => github.comments.get(`${REPOSITORY}#42`) ?? [];
