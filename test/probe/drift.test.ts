import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/findings/finding.js';
import { loadManifest, type LoadedManifest } from '../../src/manifest/load.js';
import { driftFindings } from '../../src/probe/drift.js';
import type { ProbeReport } from '../../src/probe/probe-types.js';
import { runCliAsync, showsStackTrace } from '../helpers/run-cli.js';
import { HOSTILE, probe, SERVERS, startHttp, stopServers } from './probe-harness.js';

const COMPLETE = `${SERVERS}/sdk-v1-complete.yaml`;
const SDK_V1 = `node ${SERVERS}/sdk-v1-server.mjs stdio`;
const original = readFileSync(COMPLETE, 'utf8');

function load(text: string): LoadedManifest {
  const loaded = loadManifest('lie.yaml', new TextEncoder().encode(text));
  if (!loaded.ok) throw new Error(loaded.problems.map((problem) => problem.message).join('; '));
  return loaded;
}

/** The 1-based line of the first line containing `marker`. */
function lineOf(text: string, marker: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(marker));
  if (index < 0) throw new Error(`no line with ${marker}`);
  return index + 1;
}

function replaced(text: string, from: string, to: string): string {
  expect(text.includes(from), from).toBe(true);
  return text.replace(from, to);
}

/** One lie each: how the manifest is changed, the rule that must catch it, and a text on the line it must point at. */
const LIES: readonly (readonly [string, (text: string) => string, string, string])[] = [
  [
    'an operation for a tool the server does not list',
    (text) => `${text}\n  - name: export_all\n    method: tools/call\n    sideEffect: none\n`,
    'drift-tool-missing',
    'name: export_all',
  ],
  [
    'a tool the server lists that no operation describes',
    (text) => text.slice(0, text.indexOf('  - name: charge')),
    'drift-tool-undescribed',
    'operations:',
  ],
  [
    'a key argument the tool does not take',
    (text) => replaced(text, 'keyArgument: idempotencyKey', 'keyArgument: idemKey'),
    'drift-key-argument',
    'keyArgument: idemKey',
  ],
  [
    'a key argument the tool takes but does not require',
    (text) =>
      replaced(
        text,
        '    progress: { emits: true, minIntervalMs: 100, receiverMinIntervalMs: 100 }\n',
        '    progress: { emits: true, minIntervalMs: 100, receiverMinIntervalMs: 100 }\n    idempotency: { keyArgument: steps }\n',
      ),
    'drift-key-argument',
    'keyArgument: steps',
  ],
  [
    'a fingerprint argument the tool does not take',
    (text) => replaced(text, 'fingerprint: [account, cents]', 'fingerprint: [account, amount]'),
    'drift-fingerprint-argument',
    'fingerprint: [account, amount]',
  ],
  [
    'an annotation the server contradicts',
    (text) => replaced(text, 'annotations: { readOnlyHint: true }', 'annotations: { readOnlyHint: false }'),
    'drift-annotations',
    'readOnlyHint: false }',
  ],
  [
    'an annotation the server leaves at its default',
    (text) =>
      replaced(
        text,
        'annotations: { readOnlyHint: false, idempotentHint: true }',
        'annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false }',
      ),
    'drift-annotations',
    'destructiveHint: false }',
  ],
  [
    'a task the tool does not support',
    (text) => replaced(text, '      whileInFlight: wait\n', '      whileInFlight: wait\n    task: { used: true }\n'),
    'drift-task-support',
    'task: { used: true }',
  ],
  [
    'progress slower than the server sends it',
    (text) => replaced(text, 'emits: true, minIntervalMs: 100,', 'emits: true, minIntervalMs: 1000,'),
    'drift-progress',
    'minIntervalMs: 1000',
  ],
  [
    'no progress where the server sends it',
    (text) => replaced(text, 'progress: { emits: true, minIntervalMs: 100, receiverMinIntervalMs: 100 }', 'progress: { emits: false }'),
    'drift-progress',
    'progress: { emits: false }',
  ],
];

describe('drift: a manifest against the SDK-built well-behaved server', () => {
  let report: ProbeReport;
  beforeAll(async () => {
    const run = await probe(['--stdio', SDK_V1, '--manifest', COMPLETE, '--allow-mutations']);
    expect(run.status, JSON.stringify(run.report.checks.map((check) => [check.id, check.status, check.summary]))).toBe(0);
    report = run.report as unknown as ProbeReport;
  }, 90_000);

  it('finds nothing in the manifest that tells the truth, and the probe checked the claims on the wire', () => {
    expect(driftFindings(load(original), report)).toEqual([]);
    const checked = report.checks.filter((check) => check.status === 'pass').map((check) => check.id);
    expect(checked).toEqual(
      expect.arrayContaining(['progress', 'cancel-before-completion', 'client-timeouts', 'ignored-cancellations', 'idempotent-replay']),
    );
    expect(report.tools?.map((tool) => tool.name).sort()).toEqual(['charge', 'slow_job']);
  });

  it.each(LIES)('%s: one finding, at the line of the lie', (_name, lie, ruleId, marker) => {
    const text = lie(original);
    const findings: Finding[] = driftFindings(load(text), report);
    expect(findings.map((finding) => `${finding.ruleId}: ${finding.message}`)).toEqual([expect.stringMatching(new RegExp(`^${ruleId}: `))]);
    expect(findings[0]!.range!.start.line).toBe(lineOf(text, marker));
  });
});

describe.concurrent('drift on the command line, against servers of known behaviour', () => {
  afterAll(() => stopServers());

  it('a broken server contradicts an honest-looking manifest: refused at the claim, with the transcript', async () => {
    const claims = `${SERVERS}/hostile-claims.yaml`;
    const run = await runCliAsync(['drift', claims, '--stdio', `node ${HOSTILE} progress-after-cancel --revision 2025-11-25`]);
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(showsStackTrace(run.stderr)).toBe(false);
    const line = lineOf(readFileSync(claims, 'utf8'), 'stopsWork: immediately');
    expect(run.stdout).toMatch(
      new RegExp(
        `^${claims.replace(/[.]/g, '\\.')}\n(?: {2}.*\n)*? {2}${line}:\\d+ +error +slow_job: the manifest says stopsWork: immediately, ` +
          '.*cancel-before-completion.*progress .*after the cancellation.* +drift-cancellation$',
        'm',
      ),
    );
    // The excerpt starts at the cancellation and shows the progress that came after it.
    const excerpt = run.stdout.slice(run.stdout.indexOf(`${claims}:${line} [drift-cancellation]`));
    expect(excerpt).toMatch(/\n {4}t=\d+ms → \{"jsonrpc":"2\.0","method":"notifications\/cancelled"/);
    expect(excerpt).toMatch(/\n {4}t=\d+ms ← .*"notifications\/progress"/);
  }, 90_000);

  it('over Streamable HTTP, SSE headers the manifest lists but the server leaves out', async () => {
    const claims = `${SERVERS}/hostile-claims.yaml`;
    const server = await startHttp([HOSTILE, 'missing-sse-headers', '--http', '0', '--revision', '2025-11-25']);
    try {
      const run = await runCliAsync(['drift', claims, '--url', `http://127.0.0.1:${server.port}/mcp`, '-f', 'json']);
      expect(run.status, run.stderr).toBe(1);
      const findings = (JSON.parse(run.stdout) as { files: { findings: Finding[] }[] }).files[0]!.findings;
      expect(findings.map((finding) => finding.ruleId)).toEqual(['drift-sse-headers']);
      expect(findings[0]!.range!.start.line).toBe(lineOf(readFileSync(claims, 'utf8'), 'sseHeaders:'));
      expect(findings[0]!.message).toMatch(/Cache-Control/);
    } finally {
      server.stop();
    }
  }, 90_000);
});
