/** One finding as the grouped stylish output shows it. */
export interface StylishFinding {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly ruleId: string;
  /** The row as printed. */
  readonly text: string;
}

/** The findings of a stylish report (a file's path on its own line, then `  line:col  severity  message  rule` rows). */
export function stylishFindings(output: string): StylishFinding[] {
  const findings: StylishFinding[] = [];
  let file: string | undefined;
  for (const text of output.split('\n')) {
    const row = /^ {2}(\d+):(\d+) +(error|warning|info) +(.*?) +(\S+)$/.exec(text);
    if (row !== null && file !== undefined) {
      findings.push({
        file,
        line: Number(row[1]),
        column: Number(row[2]),
        severity: row[3] as StylishFinding['severity'],
        message: row[4]!,
        ruleId: row[5]!,
        text,
      });
    } else if (text !== '' && !text.startsWith(' ')) file = text;
  }
  return findings;
}
