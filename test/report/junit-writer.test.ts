import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { writeJunit } from '../../src/report/junit-writer.js';
import type { TestCase, TestRun } from '../../src/report/test-suite.js';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) => name === 'testcase' || name === 'testsuite',
});

const pass: TestCase = { classname: 'c', name: 'passes', status: 'pass' };
const fail: TestCase = { classname: 'c', name: 'fails', status: 'fail', type: 'error', message: 'm', details: 'd' };
const error: TestCase = { classname: 'c', name: 'errs', status: 'error', type: 'probe-start', message: 'down' };
const skipped: TestCase = { classname: 'c', name: 'skips', status: 'skipped', message: 'inconclusive: why' };

const run = (cases: TestCase[][], layout: Partial<TestRun> = {}): TestRun => ({
  name: 'mcprely',
  suites: cases.map((suite, index) => ({ name: `s${index}`, cases: suite })),
  countsSkipped: true,
  emptyCase: 'self-closing',
  ...layout,
});

describe('the JUnit writer: the counts of the run and of each suite are those of their cases', () => {
  const rows: [string, TestCase[][], Record<string, string>, Record<string, string>[]][] = [
    ['no suites', [], { tests: '0', failures: '0', errors: '0', skipped: '0' }, []],
    [
      'one case of each status',
      [[pass, fail, error, skipped]],
      { tests: '4', failures: '1', errors: '1', skipped: '1' },
      [{ tests: '4', failures: '1', errors: '1', skipped: '1' }],
    ],
    [
      'suites counted apart, the run summed',
      [
        [fail, fail],
        [skipped, pass, error],
      ],
      { tests: '5', failures: '2', errors: '1', skipped: '1' },
      [
        { tests: '2', failures: '2', errors: '0', skipped: '0' },
        { tests: '3', failures: '0', errors: '1', skipped: '1' },
      ],
    ],
  ];
  for (const [name, cases, total, suites] of rows)
    it(name, () => {
      const xml = writeJunit(run(cases));
      expect(XMLValidator.validate(xml)).toBe(true);
      const parsed = parser.parse(xml).testsuites;
      expect(parsed).toMatchObject({ name: 'mcprely', ...total });
      expect(
        (parsed.testsuite ?? []).map(({ tests, failures, errors, skipped: s }: Record<string, string>) => ({
          tests,
          failures,
          errors,
          skipped: s,
        })),
      ).toEqual(suites);
    });

  it('skipped is counted only where the run says so', () => {
    expect(writeJunit(run([[skipped]], { countsSkipped: false }))).not.toMatch(/skipped="/);
  });
});

describe('the JUnit writer: one element per outcome', () => {
  const rows: [string, TestCase, RegExp][] = [
    ['a pass has nothing inside', pass, /<testcase classname="c" name="passes"\/>/],
    [
      'a failure carries its type, message and details',
      fail,
      /<testcase [^>]*>\n {6}<failure type="error" message="m">d<\/failure>\n {4}<\/testcase>/,
    ],
    ['an error without details is an empty element', error, /<error type="probe-start" message="down"\/>/],
    ['a skipped case says why', skipped, /<skipped message="inconclusive: why"\/>/],
    ['time in seconds to the millisecond', { ...pass, durationMs: 1234.5 }, /name="passes" time="1.234"\/>/],
    ['output after the outcome', { ...fail, output: 'out' }, /<\/failure>\n {6}<system-out>out<\/system-out>\n {4}<\/testcase>/],
    [
      'texts escaped, controls made visible',
      { ...pass, name: `<a & "b" 'c'>\u0001` },
      /name="&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;\\u0001"/,
    ],
  ];
  for (const [name, one, expected] of rows) it(name, () => expect(writeJunit(run([[one]]))).toMatch(expected));

  it('an empty case opens and closes where the run says so, and the suite carries its output', () => {
    const xml = writeJunit({
      ...run([[pass]], { emptyCase: 'open-and-close' }),
      suites: [{ name: 's', cases: [pass], output: 'called x' }],
    });
    expect(xml).toMatch(/name="passes">\n {4}<\/testcase>\n {4}<system-out>called x<\/system-out>\n {2}<\/testsuite>/);
  });
});
