import type { FixtureRun } from './fixture-run.js';
import { displayText } from '../text/display-text.js';

/** A fixture's run as text: header, each transcript line on the logical clock, then each expectation. */
export function renderRun(run: FixtureRun): string {
  const { fixture } = run;
  const lines = [
    `${run.passed ? 'PASS' : 'FAIL'}  ${fixture.id}  [${fixture.transport}, ${fixture.specVersion}]`,
    `      ${fixture.title}`,
  ];
  let width = 1;
  for (const entry of run.transcript) width = Math.max(width, String(entry.at).length);
  for (const entry of run.transcript) lines.push(`  t=${String(entry.at).padStart(width)}ms  ${entry.lane.padEnd(15)}  ${entry.text}`);
  for (const result of run.results)
    lines.push(`  ${result.passed ? 'ok  ' : 'FAIL'}  ${describeExpectation(result.expectation)}: ${result.detail}`);
  // One element, one line: text from the manifest or the fixture file cannot break out of it.
  return `${lines.map(displayText).join('\n')}\n`;
}

export function describeExpectation(expectation: FixtureRun['results'][number]['expectation']): string {
  if (expectation.check === 'within-limits') return expectation.check;
  const { check, ...rest } = expectation;
  const details = Object.entries(rest).map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : String(value)}`);
  return details.length === 0 ? check : `${check} (${details.join(', ')})`;
}
