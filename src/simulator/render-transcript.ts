import type { FixtureRun } from './fixture-run.js';

/** A fixture's run as text: header, each transcript line on the logical clock, then each expectation. */
export function renderRun(run: FixtureRun): string {
  const { fixture } = run;
  const lines = [
    `${run.passed ? 'PASS' : 'FAIL'}  ${fixture.id}  [${fixture.transport}, ${fixture.specVersion}]`,
    `      ${fixture.title}`,
  ];
  const width = Math.max(...run.transcript.map((entry) => String(entry.at).length), 1);
  for (const entry of run.transcript) lines.push(`  t=${String(entry.at).padStart(width)}ms  ${entry.lane.padEnd(15)}  ${entry.text}`);
  for (const result of run.results)
    lines.push(`  ${result.passed ? 'ok  ' : 'FAIL'}  ${describeExpectation(result.expectation)}: ${result.detail}`);
  return `${lines.join('\n')}\n`;
}

export function describeExpectation(expectation: FixtureRun['results'][number]['expectation']): string {
  const { check, ...rest } = expectation;
  const details = Object.entries(rest).map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : String(value)}`);
  return details.length === 0 ? check : `${check} (${details.join(', ')})`;
}
