import { describe, expect, it } from 'vitest';
import { renderProbeText } from '../../src/probe/render-probe.js';
import { hostGivesUp, stallNotice, stallSummary } from '../../src/probe/stall.js';
import { STALL } from './checks/silence-rows.js';

describe("a stalled tool in the probe's words", () => {
  it('nothing at all, quiet past the idle timeout: what each host does, with the numbers played', () => {
    expect(hostGivesUp(STALL)).toBe(true);
    expect(stallSummary(STALL)).toBe(
      'slow_job never answered: no response within 65 s (no progress, no message at all). A host keeping the idle timeout ' +
        "of 10 s (defaults) gives up on every call after 10 s; one keeping only the maximum of 30 s gives up at 30 s; the TypeScript SDK's " +
        'default request timeout (60 s) ends every call; a host with neither timeout waits for ever. Send progress while the work ' +
        'runs and answer (or fail) within the maximum.',
    );
  });

  it('progress at first, then quiet: the idle timeout counts from the last progress', () => {
    const quiet = { ...STALL, progress: 2, silentMs: 64_500, idleMs: 20_000, timeoutsFrom: 'the manifest (export)' };
    expect(stallNotice(quiet)).toBe(
      'slow_job has not answered within 65 s: 2 progress notifications at first, then nothing for 64.5 s; ' +
        'the probe cancelled it, and the later checks will not wait for it again',
    );
    expect(stallSummary(quiet)).toMatch(
      /idle timeout of 20 s \(the manifest \(export\)\) gives up on every call 20 s after its last progress;/,
    );
  });

  it('quiet for less than the idle timeout: whether a host gives up cannot be told, and the summary says what would tell', () => {
    const short = { ...STALL, limitMs: 5000, silentMs: 4900, progress: 1 };
    expect(hostGivesUp(short)).toBe(false);
    expect(stallSummary(short)).toMatch(
      new RegExp(
        '^slow_job did not answer: no response within 5 s \\(1 progress notification at first, then nothing for 4\\.9 s\\)\\. ' +
          "The probe watched less than the idle timeout of 10 s \\(defaults\\), so whether a host's idle timeout fires cannot be told: raise --max-time",
      ),
    );
  });
});

describe("the probe report's summary", () => {
  const report = {
    version: 3 as const,
    target: 'node server.mjs',
    transport: 'stdio' as const,
    revision: '2025-11-25' as const,
    startedOk: true,
    observations: [],
    checks: [],
  };
  it('leads with the stall, then the counts', () => {
    const lines = renderProbeText({ ...report, stall: STALL }).split('\n');
    const at = lines.findIndex((line) => line.startsWith('Summary: '));
    expect(lines[at]).toBe(`Summary: ${stallSummary(STALL)}`);
    expect(lines[at + 1]).toBe('         0 passed, 0 failed, 0 inconclusive, 0 not observable');
  });
  it('without a stall, is the counts alone', () => {
    expect(renderProbeText(report)).toMatch(/\nSummary: 0 passed, 0 failed, 0 inconclusive, 0 not observable\n$/);
  });
});
