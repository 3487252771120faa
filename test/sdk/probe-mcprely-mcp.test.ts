import { afterAll, describe, expect, it } from 'vitest';
import { SPEC_VERSIONS } from '../../src/spec/revisions.js';
import { MCPRELY, startHttpMcp, workingFolder } from '../mcp-server/mcp-server-harness.js';
import { check, probe, type Report } from '../probe/probe-harness.js';

/**
 * mcprely probe against mcprely mcp, on stdio and Streamable HTTP, both revisions: it exits 0 with every check that a
 * read-only server without tasks can exercise passed. The long call is a review of a large manifest (4 × the billing
 * example, 232 fixtures, seconds of work reporting progress); the manifest names server_status so that whether a
 * cancelled review stopped is seen even where a closed stream is the cancellation. Slow: run by npm run test:sdk.
 */
const MANIFEST = 'test/mcp-server/mcprely-mcp.yaml';
const folder = workingFolder();
const stops: (() => void)[] = [];
afterAll(() => {
  for (const stop of stops) stop();
});

/** What a read-only server without tasks cannot have exercised, and the reason the probe must give. */
const CANNOT_EXERCISE: Readonly<Record<string, RegExp>> = {
  tasks: /no tool to run as a task: no listed tool says execution\.taskSupport/,
  'idempotent-replay': /not run: calling a mutation needs --allow-mutations/,
};

/** What a transport cannot show at all, and why. */
const NOT_OBSERVABLE: Readonly<Record<string, Readonly<Record<string, RegExp>>>> = {
  stdio: { 'sse-headers': /stdio has no HTTP headers/, 'get-405': /stdio has no HTTP endpoint/ },
  '2025-11-25 http': { 'get-405': /a GET may open a stream or answer 405: either is right/ },
  '2026-07-28 http': {},
};

function expectEverythingExercised(report: Report, transport: string): void {
  for (const entry of report.checks) {
    const reason = CANNOT_EXERCISE[entry.id] ?? NOT_OBSERVABLE[transport]?.[entry.id];
    if (reason === undefined) expect([entry.id, entry.status, entry.summary]).toEqual([entry.id, 'pass', entry.summary]);
    else expect(entry.summary, entry.id).toMatch(reason);
  }
  for (const judgement of report.session?.judgements ?? [])
    if (!(transport === 'stdio' && /sse-headers|own-stream/.test(judgement.judge)))
      expect([judgement.judge, judgement.status, judgement.summary]).toEqual([judgement.judge, 'pass', judgement.summary]);
}

const LONG_CALL = ['--operation', 'review_operation', '--manifest', MANIFEST, '--max-timeout', '300'];

describe.concurrent('mcprely probe passes mcprely mcp', () => {
  for (const revision of SPEC_VERSIONS) {
    it(`stdio, ${revision}`, { timeout: 200_000 }, async () => {
      const { report, status } = await probe(
        ['--stdio', `node ${MCPRELY} mcp --folder ${folder}`, '--spec-version', revision, ...LONG_CALL],
        190_000,
      );
      expectEverythingExercised(report, 'stdio');
      expect(check(report, 'progress').summary).toMatch(/increasing values with the request's token/);
      expect(status).toBe(0);
    });

    it(`Streamable HTTP, ${revision}`, { timeout: 200_000 }, async () => {
      const server = await startHttpMcp(folder);
      stops.push(server.stop);
      const { report, status } = await probe(['--url', server.url, '--spec-version', revision, ...LONG_CALL], 190_000);
      expectEverythingExercised(report, `${revision} http`);
      expect(status).toBe(0);
    });
  }
});
