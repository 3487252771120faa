import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { check, probe, type Report } from '../probe/probe-harness.js';
import { listenSdk, python, SDK_DIR, type SdkServer, sdkServerCommand } from './sdk-server-process.js';

/**
 * The probe against servers built with the official SDKs (TypeScript v1 and v2, Python mcp), each in a correct
 * and three defective variants, over stdio and Streamable HTTP, on each revision the SDK speaks. Every row is
 * what the server's source does (test/probe/servers/sdk/, docs/sdk-behaviours.md), and the outcome each check
 * must reach: passed only where the behaviour was seen, failed where it was seen wrong, not observable where
 * the wire cannot show it. The manifest names job_status (probe.workStatus), through which the probe sees
 * whether a cancelled run's work still runs. Run by `npm run test:sdk` (slow: about 40 probes).
 */
const DIR = SDK_DIR;
const MANIFEST = `${DIR}/sdk-servers.yaml`;
const ARGS = ['--manifest', MANIFEST, '--grace', '300', '--max-time', '60000'];
const S25 = '2025-11-25';
const S26 = '2026-07-28';

type Server = SdkServer;
type Variant = 'correct' | 'ignore-cancel' | 'progress-after-cancel' | 'reply-to-cancel';
type Outcome = 'pass' | 'fail' | 'inconclusive' | 'not-observable';

/** What each check must say: the two cancellation checks, and why a failure fails (the summary's start). */
interface Row {
  readonly server: Server;
  readonly transport: 'stdio' | 'http';
  readonly revision: string;
  readonly variant: Variant;
  readonly cancel: Outcome;
  readonly timeouts: Outcome;
  /** The failure's reason, matched against the cancellation check's summary. */
  readonly because?: RegExp;
  /** A known SDK behaviour named in its details (docs/sdk-behaviours.md#id). */
  readonly sdk?: string;
}

const WORK_WENT_ON = /^(?:the \w+ timeout fired .*; )?the work went on after the cancellation: job_status says 1 still running$/;
const ANSWERED = /that answers the cancellation/;
const PROGRESS_AFTER = /progress [\d.]+ \d+ ms after request \d+/;
const STOPPED = /the work stopped: job_status says none is running after the cancellation/;

function rows(): Row[] {
  const all: Row[] = [];
  const add = (
    server: Server,
    transport: 'stdio' | 'http',
    revision: string,
    table: Record<Variant, Omit<Row, 'server' | 'transport' | 'revision' | 'variant'>>,
  ) => {
    for (const [variant, row] of Object.entries(table)) all.push({ server, transport, revision, variant: variant as Variant, ...row });
  };
  // v1 drops an aborted request's result and the progress it sends through extra (v1-suppresses-aborted-response,
  // v1-drops-progress-after-abort): a handler that ignores the cancellation is silent on the wire, and only the
  // status tool shows its work going on.
  const v1 = {
    correct: { cancel: 'pass', timeouts: 'pass', because: STOPPED },
    'ignore-cancel': { cancel: 'fail', timeouts: 'fail', because: WORK_WENT_ON },
    'progress-after-cancel': { cancel: 'fail', timeouts: 'fail', because: WORK_WENT_ON },
    'reply-to-cancel': { cancel: 'fail', timeouts: 'fail', because: ANSWERED },
  } as const;
  add('v1', 'stdio', S25, v1);
  add('v1', 'http', S25, v1);
  // v2 passes progress sent after the abort (v2-progress-after-abort-passes).
  const v2stdio = { ...v1, 'progress-after-cancel': { cancel: 'fail', timeouts: 'fail', because: PROGRESS_AFTER } } as const;
  add('v2', 'stdio', S25, v2stdio);
  add('v2', 'stdio', S26, v2stdio);
  // 2026-07-28 HTTP: the closed stream is the cancellation, nothing can follow on it (v2-http-nothing-after-close);
  // the status tool still shows the work.
  add('v2', 'http', S26, {
    correct: { cancel: 'pass', timeouts: 'pass', because: STOPPED },
    'ignore-cancel': { cancel: 'fail', timeouts: 'fail', because: WORK_WENT_ON },
    'progress-after-cancel': { cancel: 'fail', timeouts: 'fail', because: WORK_WENT_ON },
    'reply-to-cancel': { cancel: 'pass', timeouts: 'pass', because: STOPPED },
  });
  // The legacy stateless fallback never sees a POSTed cancellation: every variant runs on and answers.
  const blind = { cancel: 'fail', timeouts: 'fail', sdk: 'v2-legacy-fallback-blind-to-cancel' } as const;
  add('v2', 'http', S25, { correct: blind, 'ignore-cancel': blind, 'progress-after-cancel': blind, 'reply-to-cancel': blind });
  // Python passes progress after the cancellation (py-progress-after-cancel-passes); on stdio it never answers a cancelled request.
  const pyStdio = v2stdio;
  add('python', 'stdio', S25, pyStdio);
  add('python', 'stdio', S26, pyStdio);
  // On 2025-11-25 HTTP its transport answers every cancelled request with -32800 (py-http-answers-cancelled-32800).
  add('python', 'http', S25, {
    correct: { cancel: 'fail', timeouts: 'fail', because: ANSWERED, sdk: 'py-http-answers-cancelled-32800' },
    // Its -32800 comes when the ignoring handler settles, long after the cancellation.
    'ignore-cancel': { cancel: 'fail', timeouts: 'fail', because: ANSWERED, sdk: 'py-http-answers-cancelled-32800' },
    'progress-after-cancel': { cancel: 'fail', timeouts: 'fail', because: PROGRESS_AFTER },
    'reply-to-cancel': { cancel: 'fail', timeouts: 'fail', because: ANSWERED },
  });
  add('python', 'http', S26, {
    correct: { cancel: 'pass', timeouts: 'pass', because: STOPPED },
    'ignore-cancel': { cancel: 'fail', timeouts: 'fail', because: WORK_WENT_ON },
    'progress-after-cancel': { cancel: 'fail', timeouts: 'fail', because: WORK_WENT_ON },
    // Its shielded write into the closed stream never returns: the run stays active, which only the status tool shows.
    'reply-to-cancel': { cancel: 'fail', timeouts: 'fail', because: WORK_WENT_ON },
  });
  return all;
}

const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

const command = sdkServerCommand;
const listen = (server: Server, variant: Variant) => listenSdk(server, variant, children);

async function probeRow(row: Row): Promise<{ report: Report; status: number | null }> {
  const revision = ['--spec-version', row.revision];
  if (row.transport === 'stdio') {
    const [program, args] = command(row.server, row.variant, ['stdio']);
    return probe(['--stdio', [program, ...args].join(' '), ...revision, ...ARGS]);
  }
  const { port, child } = await listen(row.server, row.variant);
  try {
    return await probe(['--url', `http://127.0.0.1:${port}/mcp`, ...revision, ...ARGS]);
  } finally {
    child.kill('SIGKILL');
  }
}

const name = (row: Row) => `${row.server} ${row.transport} ${row.revision} ${row.variant}`;

describe.concurrent('the probe against SDK-built servers: every check, each variant, each transport and revision', () => {
  for (const row of rows()) {
    it.skipIf(row.server === 'python' && python === undefined)(name(row), { timeout: 120_000 }, async () => {
      const { report, status } = await probeRow(row);
      expect(report.revision).toBe(row.revision);
      const cancel = check(report, 'cancel-before-completion');
      const timeouts = check(report, 'client-timeouts');
      const seen = JSON.stringify({ cancel: [cancel.status, cancel.summary], timeouts: [timeouts.status, timeouts.summary] }, null, 1);
      expect(cancel.status, seen).toBe(row.cancel);
      expect(timeouts.status, seen).toBe(row.timeouts);
      if (row.because !== undefined) expect(cancel.summary, seen).toMatch(row.because);
      if (row.sdk !== undefined) expect(cancel.details.join('\n'), seen).toContain(`docs/sdk-behaviours.md#${row.sdk}`);
      if (cancel.status === 'fail') expect(cancel.fix).toMatch(/^on cancellation, stop the work/);
      // The checks that need no cancellation hold on every SDK.
      expect(check(report, 'progress').status).toBe('pass');
      expect(check(report, 'ignored-cancellations').status).toBe('pass');
      expect(check(report, 'wire').status).toBe('pass');
      expect(status).toBe(row.cancel === 'fail' || row.timeouts === 'fail' ? 1 : 0);
    });
  }
});

describe.concurrent('evidence never certifies what the wire cannot show', () => {
  it('a v2 server whose tool ignores the closed stream (2026-07-28 HTTP): stopsWork as declared without a status tool, refused with one', async () => {
    const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { runCliAsync } = await import('../helpers/run-cli.js');
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-sdk-evidence-'));
    const blind = join(dir, 'blind.yaml');
    const complete = readFileSync(`${DIR}/sdk-servers-complete.yaml`, 'utf8');
    // The same claims, no way to see the work: the manifest without probe.workStatus.
    writeFileSync(blind, complete.replace('      workStatus: { tool: job_status, field: active }\n', ''));
    const seeing = join(dir, 'seeing.yaml');
    writeFileSync(seeing, complete);
    const { port, child } = await listen('v2', 'ignore-cancel');
    try {
      const url = `http://127.0.0.1:${port}/mcp`;
      const first = await runCliAsync(['evidence', blind, '-o', join(dir, 'blind'), '--url', url, '--grace', '300']);
      const index = JSON.parse(readFileSync(join(dir, 'blind', 'index.json'), 'utf8')) as { verdict: string };
      expect(index.verdict, first.stdout + first.stderr).not.toMatch(/verified on the wire/);
      expect(index.verdict).toMatch(
        /^production-ready: \d+ claims seen on the wire .*slow_job: cancellation\.stopsWork \(not observable\)/,
      );
      const second = await runCliAsync(['evidence', seeing, '-o', join(dir, 'seeing'), '--url', url, '--grace', '300']);
      const refused = JSON.parse(readFileSync(join(dir, 'seeing', 'index.json'), 'utf8')) as { verdict: string; productionReady: boolean };
      expect(refused.productionReady, second.stdout).toBe(false);
      expect(refused.verdict).toMatch(/^not production-ready: .*the server contradicts the manifest/);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});
