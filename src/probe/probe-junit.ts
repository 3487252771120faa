import { writeJunit } from '../report/junit-writer.js';
import type { TestCase, TestCaseOutcome, TestRun } from '../report/test-suite.js';
import { type CheckStatus, type ProbeReport, STATUS_WORDS } from './probe-types.js';

/** JUnit XML of a probe (`probeTestRun`). */
export function renderProbeJunit(report: ProbeReport): string {
  return writeJunit(probeTestRun(report));
}

/**
 * A probe as test cases, one suite named by its target: a timed case per check, a case per session judge, a
 * failure only for what failed (inconclusive and not observable ones skipped with why), an error case when the
 * probe could not start, and what it called as the suite's output.
 */
export function probeTestRun(report: ProbeReport): TestRun {
  const classname = report.target;
  const cases: TestCase[] = report.checks.map((check) => ({
    classname,
    name: `${check.id}: ${check.title}`,
    durationMs: check.durationMs,
    ...(check.status === 'fail'
      ? {
          status: 'fail',
          type: 'probe',
          message: `${check.summary}${check.fix === undefined ? '' : ` Fix: ${check.fix}`}`,
          details: [check.summary, ...check.details].join('\n'),
        }
      : notFailed(check.status, check.summary)),
  }));
  for (const judgement of report.session?.judgements ?? [])
    cases.push({
      classname,
      name: `session: ${judgement.judge}`,
      ...(judgement.status === 'fail'
        ? {
            status: 'fail',
            type: 'session',
            message: judgement.summary,
            details: judgement.cases
              .filter((one) => one.status === 'fail')
              .map((one) => one.message)
              .join('\n'),
          }
        : notFailed(judgement.status, judgement.summary)),
    });
  if (!report.startedOk)
    cases.push({ classname, name: 'probe-start', status: 'error', type: 'probe-start', message: report.problem ?? '' });
  const output =
    report.plan === undefined
      ? undefined
      : report.plan.tool === null
        ? `called no long-running tool: ${report.plan.why}`
        : `called ${report.plan.tool}: ${report.plan.why}`;
  return {
    name: 'mcprely probe',
    suites: [{ name: report.target, cases, ...(output === undefined ? {} : { output }) }],
    countsSkipped: true,
    emptyCase: 'open-and-close',
  };
}

/** A check or judge that did not fail: a pass, or skipped with its outcome and why. */
function notFailed(status: Exclude<CheckStatus, 'fail'>, summary: string): TestCaseOutcome {
  return status === 'pass' ? { status } : { status: 'skipped', message: `${STATUS_WORDS[status]}: ${summary}` };
}
