/**
 * A run of test cases as CI test reporters read it: suites of cases, each passed, failed, skipped or in error.
 * Lint findings, verify's fixtures and the probe's checks each become one (`lintTestRun`, `verifyTestRun`,
 * `probeTestRun`), and one writer (`writeJunit`) turns any of them into JUnit XML. Texts are raw: the writer escapes.
 */
export interface TestRun {
  /** The name of the whole run (`mcprely`, `mcprely probe`…). */
  readonly name: string;
  readonly suites: readonly TestSuite[];
  /**
   * Whether the counts include `skipped`: the probe's runs have always said how many were skipped, lint's and
   * verify's (which skip nothing) never have, and a reporter's history keys on what it saw.
   */
  readonly countsSkipped: boolean;
  /**
   * How a case with nothing inside (a pass without output) is written: `<testcase …/>` as lint always has, or
   * `<testcase …>` and `</testcase>` on two lines as the probe always has.
   */
  readonly emptyCase: 'self-closing' | 'open-and-close';
}

export interface TestSuite {
  readonly name: string;
  readonly cases: readonly TestCase[];
  /** What the suite as a whole printed (the suite's `system-out`). */
  readonly output?: string;
}

/** What became of one case: passed, or not, with why in a short message and, when there is more, the details. */
export type TestCaseOutcome =
  | { readonly status: 'pass' }
  | {
      readonly status: 'fail' | 'error';
      /** The kind of failure or error (a severity, a rule id, `probe`…). */
      readonly type: string;
      readonly message: string;
      /** The longer story; none writes the failure or error as an empty element. */
      readonly details?: string;
    }
  | { readonly status: 'skipped'; readonly message: string };

export type TestCase = TestCaseOutcome & {
  /** The case's class in reporters' terms: the file or target it belongs to. */
  readonly classname: string;
  readonly name: string;
  /** How long the case took, when it was timed (ms; JUnit's seconds are the writer's business). */
  readonly durationMs?: number;
  /** What the case printed (its `system-out`). */
  readonly output?: string;
};
