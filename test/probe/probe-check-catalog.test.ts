import { describe, expect, it } from 'vitest';
import { SESSION_RULES } from '../../src/judges/session-rules.js';
import { asserts, PROBE_CHECK_DECLARATIONS, putsCallInFlight } from '../../src/probe/probe-check-catalog.js';
import { PROBE_CHECKS } from '../../src/probe/run-probe.js';

const ids = PROBE_CHECK_DECLARATIONS.map((declaration) => declaration.id);

describe('the probe checks, declared once', () => {
  it('has one declaration per id, in the order of a report: revision and tools, the checks run, wire', () => {
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(['revision', 'tools', ...PROBE_CHECKS.map((check) => check.id), 'wire']);
  });

  it('the checks the runner plays are their declarations with a run (and the limit they tell as they start)', () => {
    for (const check of PROBE_CHECKS) {
      const declared = PROBE_CHECK_DECLARATIONS.find((declaration) => declaration.id === check.id);
      const { run: _run, limit: _limit, ...data } = check;
      expect(data, check.id).toEqual(declared);
    }
  });

  it('names in asserts only judges of the server (the probe runs no client judge on its own session)', () => {
    const serverJudges = new Set(SESSION_RULES.filter((rule) => rule.tags.includes('server')).map((rule) => rule.id));
    for (const declaration of PROBE_CHECK_DECLARATIONS)
      for (const judge of declaration.asserts) expect(serverJudges.has(judge), `${declaration.id} asserts ${judge}`).toBe(true);
  });

  it('cross-references the judges as before the declarations (which check asserts which judge)', () => {
    const asserting = (judge: string) => ids.filter((id) => asserts(id, judge));
    expect(asserting('server-silent-after-cancel')).toEqual(['cancel-before-completion', 'client-timeouts', 'tasks']);
    expect(asserting('server-progress-increases')).toEqual(['progress']);
    expect(asserting('server-answers-only-requests')).toEqual(['cancel-before-completion', 'ignored-cancellations']);
    expect(asserting('server-sse-headers')).toEqual(['sse-headers']);
    expect(asserting('server-messages-on-own-stream')).toEqual(['cancel-before-completion', 'client-timeouts']);
    expect(asserts('no-such-check', 'server-sse-headers')).toBe(false);
  });

  it('puts a call in flight in the five request checks', () => {
    expect(ids.filter(putsCallInFlight)).toEqual(['progress', 'cancel-before-completion', 'client-timeouts', 'tasks', 'idempotent-replay']);
  });
});
