import { afterAll, describe, expect, it } from 'vitest';
import { CASES, probeCase } from './hostile-cases.js';
import { stopServers } from './probe-harness.js';

afterAll(stopServers);

/**
 * The probe's wiring to each transport, through the built CLI and a real server: a well-behaved server passes and a
 * defect fails, over stdio and over Streamable HTTP (both revisions). The failing defect is one of structure (a second
 * response), not of timing, so the verdict holds beside other files on a loaded machine. Every defect on every transport is
 * test/probe/hostile-servers.test.ts, in npm run test:live; the checks' logic is tabled in test/probe/checks/.
 */
const WIRING = [
  'none over stdio (2025-11-25)',
  'double-response over stdio',
  'none over HTTP (2026-07-28: closing the stream cancels)',
  'double-response over HTTP (2025-11-25)',
];

describe.concurrent('probe: the wiring of stdio and Streamable HTTP, a passing and a failing server on each', () => {
  it('the cases are in the table', () => expect(WIRING.filter((name) => CASES[name] === undefined)).toEqual([]));
  it.each(WIRING)('%s', { timeout: 90_000 }, async (name) => probeCase(CASES[name]!));
});
