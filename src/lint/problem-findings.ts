import { toJsonPointer, type Finding } from '../findings/finding.js';
import { LineIndex } from '../document/line-index.js';
import { RULE_ID_BY_KIND, type DocumentProblem } from '../document/problem.js';

/** Places manifest problems in their file as findings (1-based lines and columns). */
export function problemFindings(file: string, text: string, problems: readonly DocumentProblem[]): Finding[] {
  let lines: LineIndex | undefined;
  return problems.map((problem) => {
    const base = {
      ruleId: RULE_ID_BY_KIND[problem.kind],
      severity: 'error' as const,
      messageId: problem.messageId,
      data: problem.data,
      message: problem.message,
      file,
      path: toJsonPointer(problem.path ?? []),
      ...(problem.fix === undefined ? {} : { fix: problem.fix }),
    };
    if (problem.start === undefined) return base;
    lines ??= new LineIndex(text);
    const start = lines.position(problem.start);
    const end = lines.position(Math.max(problem.start, problem.end ?? problem.start));
    return { ...base, range: { start, end } };
  });
}
