import type { TestCase, TestRun, TestSuite } from './test-suite.js';

/** A run of test cases as JUnit XML: the counts of the run and of each suite are those of their cases. */
export function writeJunit(run: TestRun): string {
  const suites = run.suites.map((suite) => writeSuite(suite, run));
  const cases = run.suites.flatMap((suite) => suite.cases);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${escapeXml(run.name)}" ${counts(cases, run)}>\n` +
    `${suites.join('\n')}\n</testsuites>\n`
  );
}

function writeSuite(suite: TestSuite, run: TestRun): string {
  const cases = suite.cases.map((one) => writeCase(one, run));
  const output = suite.output === undefined ? '' : `    <system-out>${escapeXml(suite.output)}</system-out>\n`;
  return `  <testsuite name="${escapeXml(suite.name)}" ${counts(suite.cases, run)}>\n${cases.join('\n')}\n${output}  </testsuite>`;
}

function counts(cases: readonly TestCase[], run: TestRun): string {
  const of = (status: TestCase['status']) => cases.filter((one) => one.status === status).length;
  const skipped = run.countsSkipped ? ` skipped="${of('skipped')}"` : '';
  return `tests="${cases.length}" failures="${of('fail')}" errors="${of('error')}"${skipped}`;
}

function writeCase(one: TestCase, run: TestRun): string {
  const time = one.durationMs === undefined ? '' : ` time="${(one.durationMs / 1000).toFixed(3)}"`;
  const start = `    <testcase classname="${escapeXml(one.classname)}" name="${escapeXml(one.name)}"${time}`;
  const inside = [outcomeElement(one), one.output === undefined ? undefined : `<system-out>${escapeXml(one.output)}</system-out>`].filter(
    (element) => element !== undefined,
  );
  if (inside.length === 0 && run.emptyCase === 'self-closing') return `${start}/>`;
  return `${start}>${inside.map((element) => `\n      ${element}`).join('')}\n    </testcase>`;
}

/** The failure, error or skipped element of a case that did not pass. */
function outcomeElement(one: TestCase): string | undefined {
  if (one.status === 'pass') return undefined;
  if (one.status === 'skipped') return `<skipped message="${escapeXml(one.message)}"/>`;
  const element = one.status === 'fail' ? 'failure' : 'error';
  const start = `<${element} type="${escapeXml(one.type)}" message="${escapeXml(one.message)}"`;
  return one.details === undefined ? `${start}/>` : `${start}>${escapeXml(one.details)}</${element}>`;
}

export function escapeXml(text: string): string {
  // Characters XML 1.0 cannot carry at all (most controls, lone surrogates) are written as visible escapes;
  // the five specials are escaped; the rest stays exact.
  return text
    .replace(
      /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu,
      (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
