import { LineIndex } from '../document/line-index.js';
import type { Range } from '../document/position.js';
import type { DocumentProblem } from '../document/problem.js';
import { makeFinding, type Finding } from '../findings/finding.js';

/** Which rule id reports each kind of document problem. */
export type ProblemRuleIds = Readonly<Record<DocumentProblem['kind'], string>>;

/** A manifest (or a configuration) that cannot be read, parsed or validated. */
export const MANIFEST_PROBLEM_RULES: ProblemRuleIds = { file: 'manifest-file', syntax: 'manifest-syntax', schema: 'manifest-schema' };

/** A configuration file: every problem with it is one rule's, whatever its kind. */
export const CONFIG_PROBLEM_RULES: ProblemRuleIds = { file: 'config-file', syntax: 'config-file', schema: 'config-file' };

/** A user's rule file: every problem with it is one rule's, whatever its kind. */
export const RULE_FILE_PROBLEM_RULES: ProblemRuleIds = { file: 'rule-file', syntax: 'rule-file', schema: 'rule-file' };

/** A fixture file: every problem with it is one rule's, whatever its kind. */
export const FIXTURE_PROBLEM_RULES: ProblemRuleIds = { file: 'fixture-file', syntax: 'fixture-file', schema: 'fixture-file' };

/** Places document problems in their file as findings (1-based lines and columns). */
export function problemFindings(
  file: string,
  text: string,
  problems: readonly DocumentProblem[],
  ruleIds: ProblemRuleIds = MANIFEST_PROBLEM_RULES,
): Finding[] {
  let lines: LineIndex | undefined;
  return problems.map((problem) => {
    let range: Range | undefined;
    if (problem.start !== undefined) {
      lines ??= new LineIndex(text);
      range = { start: lines.position(problem.start), end: lines.position(Math.max(problem.start, problem.end ?? problem.start)) };
    }
    return makeFinding({
      ruleId: ruleIds[problem.kind],
      severity: 'error',
      messageId: problem.messageId,
      data: problem.data,
      message: problem.message,
      file,
      path: problem.path ?? [],
      ...(range === undefined ? {} : { range }),
      ...(problem.fix === undefined ? {} : { fix: problem.fix }),
    });
  });
}
