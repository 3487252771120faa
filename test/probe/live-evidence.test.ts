import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliAsync, showsStackTrace } from '../helpers/run-cli.js';
import { HOSTILE, SERVERS, startHttp, stopServers } from './probe-harness.js';

const COMPLETE = `${SERVERS}/sdk-v1-complete.yaml`;
const SDK_V1 = `node ${SERVERS}/sdk-v1-server.mjs stdio`;
const tmp = () => mkdtempSync(join(tmpdir(), 'mcprely-live-'));

interface Index {
  productionReady: boolean;
  verdict: string;
  basis: { on: string; verified?: boolean; drift?: number; checks?: { failed: number } };
  files: string[];
}
const indexOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as Index;
/** The bundle's page: its verdict, its basis line, and its live section (undefined when it has none). */
const pageOf = (dir: string) => {
  const page = readFileSync(join(dir, 'index.html'), 'utf8');
  const live = /<section id="live">([\s\S]*?)<\/section>/.exec(page)?.[1];
  return { verdict: /data-verdict>([^<]*)</.exec(page)?.[1], basis: /<p>Basis: ([^\n]*)<\/p>/.exec(page)?.[1], live };
};

interface LiveResult {
  id: string;
  status: 'pass' | 'fail' | 'not run';
  summary: string;
  check?: string;
}

describe.concurrent('evidence that says what was verified', () => {
  afterAll(() => stopServers());

  it('without a server: production-ready as declared, not checked against a server', async () => {
    const dir = tmp();
    const run = await runCliAsync(['evidence', COMPLETE, '-o', dir]);
    expect(run.status, run.stderr).toBe(0);
    const index = indexOf(dir);
    expect(index).toMatchObject({
      productionReady: true,
      verdict: 'production-ready as declared (not checked against a server)',
      basis: { on: 'manifest' },
    });
    expect(readFileSync(join(dir, 'review.md'), 'utf8')).toContain(
      '**Verdict: ✅ production-ready** as declared (not checked against a server)',
    );
    expect(index.files.some((file) => file.startsWith('live/'))).toBe(false);
    const page = pageOf(dir);
    expect(page.verdict).toBe(index.verdict);
    expect(page.basis).toMatch(/^<strong>the manifest as declared<\/strong>/);
    expect(page.live).toBeUndefined();
  }, 60_000);

  it('the well-behaved server, its honest manifest: production-ready, verified on the wire; probe, drift and live fixtures in the bundle', async () => {
    const dir = tmp();
    const run = await runCliAsync(['evidence', COMPLETE, '-o', dir, '--stdio', SDK_V1, '--allow-mutations']);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const index = indexOf(dir);
    expect(index.productionReady).toBe(true);
    // What was seen is named as seen; what cannot be seen over stdio, or was not exercised, stands as declared, by name.
    expect(index.verdict).toMatch(
      /^production-ready: \d+ claims seen on the wire \(2025-11-25, stdio, \d{4}-\d\d-\d\d\); \d+ claims? as declared, not seen on the wire: /,
    );
    expect(index.verdict).not.toMatch(/verified on the wire/);
    expect(index.verdict).toMatch(/server\.http\.sseHeaders \(not observable\)/);
    expect(index.basis).toMatchObject({ on: 'wire', verified: true, drift: 0, checks: { fail: 0 } });
    const claims = JSON.parse(readFileSync(join(dir, 'live/claims.json'), 'utf8')) as {
      operation?: string;
      field: string;
      status: string;
    }[];
    const statusOf = (field: string) => claims.find((claim) => claim.operation === 'slow_job' && claim.field === field)?.status;
    // Silence shows the response was suppressed; it does not show the work stopped (the manifest names no status tool).
    expect(statusOf('cancellation.suppressResponseAfterCancel')).toBe('seen');
    expect(statusOf('cancellation.stopsWork')).toBe('not-observable');
    expect(index.verdict).toMatch(/slow_job: cancellation\.stopsWork \(not observable\)/);
    for (const file of ['live/probe.json', 'live/probe.txt', 'live/drift.json', 'live/claims.json', 'live/fixtures.txt']) {
      expect(index.files, file).toContain(file);
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    expect(JSON.parse(readFileSync(join(dir, 'live/drift.json'), 'utf8'))).toEqual([]);
    expect(readFileSync(join(dir, 'live/fixtures.txt'), 'utf8')).toMatch(
      /^PASS {2}slow_job\/stdio-cancel-before-completion {2}\[stdio, live\]$/m,
    );
    expect(readFileSync(join(dir, 'index.md'), 'utf8')).toContain(`verdict: ✅ ${index.verdict}`);
    const page = pageOf(dir);
    expect(page.verdict).toBe(index.verdict);
    expect(page.basis).toMatch(/^<strong>partly seen on the wire<\/strong> — node .* over stdio, MCP 2025-11-25, /);
    expect(page.live).toContain('<h3>Claims of the manifest on the wire</h3>');
    expect(page.live).toContain('<h2>Live run</h2>');
    expect(page.live).toMatch(/<h3>Drift: where the server contradicts the manifest<\/h3>\n<p>None\.<\/p>/);
    expect(page.live).toContain('<a href="live/probe.txt">live/probe.txt</a>');
  }, 90_000);

  it('a manifest the server contradicts is refused by drift, and says so', async () => {
    const dir = tmp();
    const lie = join(dir, 'lie.yaml');
    writeFileSync(
      lie,
      readFileSync(COMPLETE, 'utf8').replace(
        'annotations: { readOnlyHint: false, idempotentHint: true }',
        'annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false }',
      ),
    );
    const declared = await runCliAsync(['review', lie]);
    expect(declared.status, 'the lie alone does not change the review').toBe(0);
    const out = join(dir, 'bundle');
    const run = await runCliAsync(['evidence', lie, '-o', out, '--stdio', SDK_V1]);
    expect(run.status).toBe(1);
    const index = indexOf(out);
    expect(index.productionReady).toBe(false);
    expect(index.verdict).toMatch(
      /^not production-ready: the server contradicts the manifest \(1 drift finding\) \(checked on the wire: 2025-11-25, stdio, /,
    );
    const drift = JSON.parse(readFileSync(join(out, 'live/drift.json'), 'utf8')) as { ruleId: string }[];
    expect(drift.map((finding) => finding.ruleId)).toEqual(['drift-annotations']);
    const page = pageOf(out);
    expect(page.verdict).toBe(index.verdict);
    expect(page.basis).toMatch(/^<strong>checked on the wire, not verified<\/strong>/);
    expect(page.live).toMatch(/<code>drift-annotations<\/code>/);
  }, 90_000);

  it('a broken server behind an honest-looking manifest: refused, and the transcript shows why', async () => {
    const dir = tmp();
    const run = await runCliAsync([
      'evidence',
      `${SERVERS}/hostile-claims.yaml`,
      '-o',
      dir,
      '--stdio',
      `node ${HOSTILE} progress-after-cancel --revision 2025-11-25`,
    ]);
    expect(run.status).toBe(1);
    expect(showsStackTrace(run.stderr)).toBe(false);
    const index = indexOf(dir);
    expect(index.productionReady).toBe(false);
    expect(index.verdict).toMatch(/the server contradicts the manifest \(\d+ drift findings?\); \d+ live checks? failed/);
    const fixtures = readFileSync(join(dir, 'live/fixtures.txt'), 'utf8');
    expect(fixtures).toMatch(
      /^FAIL {2}slow_job\/stdio-cancel-before-completion {2}\[stdio, live\]\n {6}played by the probe check cancel-before-completion: the server sent progress/m,
    );
    expect(fixtures).toMatch(/"notifications\/cancelled"/);
  }, 90_000);
});

describe.concurrent('verify against a live server', () => {
  afterAll(() => stopServers());

  it('over stdio: the observable fixtures pass on the well-behaved server, the rest say why they cannot run', async () => {
    const run = await runCliAsync(['verify', COMPLETE, '--stdio', SDK_V1, '--allow-mutations', '-f', 'json']);
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { summary: { passed: number; failed: number }; fixtures: LiveResult[] };
    const byId = new Map(report.fixtures.map((fixture) => [fixture.id, fixture]));
    for (const id of [
      'slow_job/stdio-cancel-before-completion',
      'slow_job/stdio-complete-before-late-cancel',
      'charge/one-key-identical-arguments',
      'charge/key-reuse-changed-arguments',
      // The probe's progress check judges every value greater than the last.
      'slow_job/progress-values-increase',
    ])
      expect(byId.get(id), id).toMatchObject({ status: 'pass' });
    expect(byId.get('charge/close-reopen-replay')).toMatchObject({
      status: 'not-observable',
      summary: expect.stringMatching(/^not observable live: /),
    });
    expect(byId.get('charge/lost-response-automatic-retry')).toMatchObject({
      status: 'inconclusive',
      summary: expect.stringMatching(/^not run live: .*would change state/),
    });
    expect(byId.get('slow_job/http-cancel-before-completion')).toMatchObject({
      status: 'inconclusive',
      summary: expect.stringMatching(/probed over stdio/),
    });
    expect(report.summary).toMatchObject({ passed: 5, failed: 0 });
  }, 90_000);

  it('over Streamable HTTP: the HTTP fixtures run (cancel before completion, deadlines with progress)', async () => {
    const server = await startHttp([`${SERVERS}/sdk-v1-server.mjs`, 'http', '0']);
    try {
      const run = await runCliAsync(['verify', COMPLETE, '--url', `http://127.0.0.1:${server.port}/mcp`, '-f', 'json']);
      expect(run.status, run.stdout + run.stderr).toBe(0);
      const fixtures = (JSON.parse(run.stdout) as { fixtures: LiveResult[] }).fixtures;
      expect(fixtures.find((fixture) => fixture.id === 'slow_job/http-cancel-before-completion')).toMatchObject({
        status: 'pass',
        check: 'cancel-before-completion',
      });
      expect(fixtures.find((fixture) => fixture.id === 'slow_job/progress-resets-idle-maximum-fires')).toMatchObject({
        status: 'pass',
        check: 'client-timeouts',
      });
      expect(fixtures.find((fixture) => fixture.id === 'charge/one-key-identical-arguments')).toMatchObject({
        status: 'inconclusive',
        summary: 'the fixture is for stdio; the server was probed over streamable-http',
      });
    } finally {
      server.stop();
    }
  }, 90_000);

  it('a broken server fails the fixture it breaks, with the wire transcript (exit 1)', async () => {
    const run = await runCliAsync([
      'verify',
      `${SERVERS}/hostile-claims.yaml`,
      '--stdio',
      `node ${HOSTILE} response-after-cancel --revision 2025-11-25`,
    ]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^FAIL {2}slow_job\/stdio-cancel-before-completion {2}\[stdio, live\]$/m);
    expect(run.stdout).toMatch(/^Live: \d+ passed, [1-9]\d* failed, \d+ inconclusive, \d+ not observable/m);
  }, 90_000);
});
