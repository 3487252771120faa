import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/run-cli.js';
import { probeHostile, type Report, stopServers } from './probe-harness.js';

afterAll(stopServers);
const scratch = mkdtempSync(join(tmpdir(), 'mcprely-probe-session-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface SessionJudgement {
  judge: string;
  party: string;
  status: string;
  cases: { status: string; lines: number[] }[];
}
type WithSession = Omit<Report, 'session'> & { session?: { messages: number; graceMs: number; judgements: SessionJudgement[] } };

const serverVerdicts = (judgements: readonly SessionJudgement[]) =>
  Object.fromEntries(judgements.filter((one) => one.party === 'server').map((one) => [one.judge, one.status]));

/** `mcprely audit` of a trace, as JSON: each server judge's status (fail where it has a finding, else what the text says). */
async function auditVerdicts(trace: string, graceMs: number): Promise<{ failed: Map<string, number[][]>; text: string }> {
  const json = await runCliAsync(['audit', trace, '--grace', String(graceMs), '-f', 'json']);
  const findings = JSON.parse(json.stdout).files[0].findings as { ruleId: string; data: { party: string; lines: string } }[];
  const failed = new Map<string, number[][]>();
  for (const finding of findings.filter((one) => one.data.party === 'server'))
    failed.set(finding.ruleId, [...(failed.get(finding.ruleId) ?? []), finding.data.lines.split(',').map(Number)]);
  const text = await runCliAsync(['audit', trace, '--grace', String(graceMs)]);
  return { failed, text: text.stdout + text.stderr };
}

const CASES = [
  { defect: 'progress-after-cancel', on: ['stdio', '2025-11-25'], failing: ['server-silent-after-cancel'] },
  { defect: 'none', on: ['stdio', '2025-11-25'], failing: [] },
  // 2026-07-28 HTTP: closing the stream is the cancellation, and what is held for it shows on another stream (whether
  // that is also past the grace depends on when the next stream opens: server-silent-after-cancel may fail too).
  { defect: 'held-for-next-stream', on: ['http', '2026-07-28'], failing: ['server-messages-on-own-stream'] },
  { defect: 'missing-sse-headers', on: ['http', '2025-11-25'], failing: ['server-sse-headers'] },
  { defect: 'none', on: ['http', '2026-07-28'], failing: [] },
] as const;

// Concurrent: each case waits on its server's timing, and what is compared (the probe's verdicts and an audit of its own
// trace) does not depend on it.
describe.concurrent("the probe's own session, judged by the judges of proxy and audit", () => {
  it.each(CASES)(
    '$defect over $on.0 ($on.1): the probe and an audit of its --record trace give one verdict per rule',
    { timeout: 60_000 },
    async (test) => {
      const trace = join(scratch, `${test.defect}-${test.on.join('-')}.jsonl`);
      const run = await probeHostile(test.defect, test.on[0], test.on[1], ['--grace', '300', '--record', trace]);
      const report = run.report as unknown as WithSession;
      const session = report.session;
      if (session === undefined) throw new Error('the report has no session');
      expect(session.messages).toBeGreaterThan(10);
      const probeVerdicts = serverVerdicts(session.judgements);
      // Every server judge ran, and the expected ones failed (none on a well-behaved server).
      expect(Object.keys(probeVerdicts).sort()).toEqual([
        'server-answers-only-requests',
        'server-messages-on-own-stream',
        'server-progress-for-active-requests',
        'server-progress-increases',
        'server-silent-after-cancel',
        'server-sse-headers',
        'server-streams-progress',
      ]);
      const failed = Object.keys(probeVerdicts).filter((judge) => probeVerdicts[judge] === 'fail');
      if (test.failing.length === 0) expect(failed).toEqual([]);
      else expect(failed).toEqual(expect.arrayContaining([...test.failing]));
      if (test.failing.length > 0) expect(run.status).toBe(1);
      // Audit of the trace with the probe's grace: exactly the same judges fail, on the same cases (the same trace lines).
      const audit = await auditVerdicts(trace, session.graceMs);
      expect([...audit.failed.keys()].sort()).toEqual(failed.sort());
      for (const judge of failed) {
        const probeCases = session.judgements.find((one) => one.judge === judge)?.cases.filter((one) => one.status === 'fail');
        expect(probeCases?.map((one) => one.lines)).toEqual(audit.failed.get(judge)?.slice(0, probeCases?.length));
      }
      // And the judges that passed in the probe pass in the audit too (its stylish verdict lines).
      for (const [judge, status] of Object.entries(probeVerdicts))
        if (status === 'pass') expect(audit.text, judge).toMatch(new RegExp(`PASS +${judge} \\(server\\)`));
      // The trace is the session the probe judged: its messages are the trace's lines.
      const lines = readFileSync(trace, 'utf8').trimEnd().split('\n');
      expect(JSON.parse(lines[0] as string)).toMatchObject({ mcprelyTrace: 1, transport: test.on[0] === 'stdio' ? 'stdio' : 'http' });
      expect(JSON.parse(lines.at(-1) as string)).toMatchObject({ end: 'the probe ended' });
    },
  );

  it('a trace that cannot be written is a usage error before anything runs (exit 2)', async () => {
    // The server command would leave a file behind if it were started: it must not be.
    const started = join(scratch, 'server-was-started');
    const server = `node -e "require('node:fs').writeFileSync(process.argv[1], 'x')" ${started}`;
    const run = await runCliAsync(['probe', '--stdio', server, '--record', join(scratch, 'no/such/t.jsonl')]);
    expect(run.status).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(started)).toBe(false);
    expect(run.stderr).toMatch(/^error: cannot write the trace .*no\/such\/t\.jsonl: its folder does not exist\n$/);
  });
});
