import { readFileSync } from 'node:fs';
import { makeFinding, type Finding, type Severity } from '../findings/finding.js';
import { INPUT_RULES } from '../findings/input-rules.js';
import type { JudgeOptions } from '../judges/judge-options.js';
import { judgeSession, type SessionVerdict } from '../judges/judge-session.js';
import { judgementLines, SESSION_RULES, sessionFindings } from '../judges/session-rules.js';
import { readTrace } from '../judges/trace-format.js';
import { fileReport } from '../lint/file-report.js';
import { exitCodeOf, lintResult } from '../lint/lint-result.js';
import { FORMATTERS } from '../report/formats.js';
import { displayText } from '../text/display-text.js';
import { writeOutputFile } from '../workspace/output-files.js';
import { useColor } from './color.js';
import type { OutputSpec } from './output-spec.js';

export interface AuditOptions {
  readonly judge: JudgeOptions;
  readonly failSeverity: Severity;
  readonly outputs: readonly OutputSpec[];
}

const TRACE_FILE_FIX = INPUT_RULES.find((rule) => rule.id === 'trace-file')?.fix ?? '';

/** A trace judged, or the findings that say why it cannot be. */
type AuditedTrace = { readonly file: string; readonly verdict?: SessionVerdict; readonly findings: readonly Finding[] };

function traceProblem(file: string, message: string, line = 1, column = 1): Finding {
  return makeFinding({
    ruleId: 'trace-file',
    severity: 'error',
    messageId: 'default',
    message,
    file,
    path: '',
    range: { start: { line, column }, end: { line, column } },
    fix: TRACE_FILE_FIX,
  });
}

function readProblem(error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return 'No file exists at this path';
  if (error.code === 'EISDIR') return 'The path is a folder: name the trace file';
  if (error.code === 'EACCES') return 'The file cannot be read (permission denied)';
  return `The file cannot be read (${error.code ?? error.message})`;
}

function auditTrace(file: string, options: JudgeOptions): AuditedTrace {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { file, findings: [traceProblem(file, readProblem(error as NodeJS.ErrnoException))] };
  }
  const read = readTrace(text);
  if (!read.ok) return { file, findings: read.problems.map((one) => traceProblem(file, one.message, one.line, one.column)) };
  const verdict = judgeSession(read.transcript, options);
  return { file, verdict, findings: sessionFindings(verdict, file) };
}

/**
 * `mcprely audit <trace.jsonl…>`: judges recorded sessions (`mcprely proxy --record`) with the same judges the
 * proxy runs, as findings at the trace lines in the lint formats; stylish adds each judge's status. Exit 1 on a
 * finding at or above the fail severity, 2 when a trace cannot be read (the others are still judged), 3 when
 * nothing failed and no judge was exercised (no judge could pass: nothing shown, nothing passed).
 */
export function runAudit(traces: readonly string[], options: AuditOptions, toolVersion: string): number {
  const audited = traces.map((file) => auditTrace(file, options.judge));
  const result = lintResult(audited.map((one) => fileReport(one.file, one.findings)));
  for (const output of options.outputs) {
    const color = output.file === undefined && useColor(process.stdout);
    let text = FORMATTERS[output.format](result, {
      toolVersion,
      rules: [...SESSION_RULES, ...INPUT_RULES],
      color,
      category: 'mcprely-audit',
      sourceRoot: process.cwd(),
    });
    if (output.format === 'stylish')
      for (const one of audited)
        if (one.verdict !== undefined)
          text +=
            `\n${displayText(one.file)}: the judges (${one.verdict.session.transcript.messages.length} messages)\n` +
            `${judgementLines(one.verdict.judgements).join('\n')}\n`;
    if (output.file === undefined) process.stdout.write(text);
    else writeOutputFile(output.file, text);
  }
  const code = exitCodeOf(result, { failSeverity: options.failSeverity });
  if (code !== 0) return code;
  const exercised = audited.some((one) =>
    one.verdict?.judgements.some((judgement) => judgement.status === 'pass' || judgement.status === 'fail'),
  );
  if (!exercised) {
    process.stderr.write("inconclusive: no judge was exercised by these sessions (see each judge's reason above); nothing passed\n");
    return 3;
  }
  return 0;
}
