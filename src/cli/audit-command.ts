import { readFileSync } from 'node:fs';
import { makeFinding, type Finding, type Severity } from '../findings/finding.js';
import { INPUT_RULES } from '../findings/input-rules.js';
import type { JudgeOptions } from '../judges/judge-options.js';
import { judgeSession, type SessionVerdict } from '../judges/judge-session.js';
import { judgementLines, SESSION_RULES, sessionFindings } from '../judges/session-rules.js';
import { manifestClaims, manifestPlacer, type SessionClaim, sessionDrift } from '../judges/session-drift.js';
import { readTrace, type TraceHeader } from '../judges/trace-format.js';
import { DRIFT_RULES } from '../live/drift-rules.js';
import type { LoadedManifest } from '../manifest/load.js';
import { fileReport } from '../lint/file-report.js';
import { exitCodeOf, lintResult } from '../lint/lint-result.js';
import { FORMATTERS } from '../report/formats.js';
import { displayText } from '../text/display-text.js';
import { plural } from '../text/plural.js';
import { writeOutputFile } from '../workspace/output-files.js';
import { sessionPage } from '../audit/session-page.js';
import { useColor } from './color.js';
import { readOptionalManifest } from './manifest-input.js';
import type { OutputSpec } from './output-spec.js';

export interface AuditOptions {
  readonly judge: JudgeOptions;
  /** The manifest each request is judged against: its operation's timeouts and key argument, and its claims (drift). */
  readonly manifest?: string;
  /** Where to write the page of the session (one trace): the verdict, and the diagrams of what decided it. */
  readonly html?: string;
  readonly failSeverity: Severity;
  readonly outputs: readonly OutputSpec[];
}

const TRACE_FILE_FIX = INPUT_RULES.find((rule) => rule.id === 'trace-file')?.fix ?? '';

/** A trace judged (and its manifest's claims, when one is given), or the findings that say why it cannot be. */
type AuditedTrace = {
  readonly file: string;
  readonly header?: TraceHeader;
  readonly verdict?: SessionVerdict;
  readonly findings: readonly Finding[];
  readonly claims?: readonly SessionClaim[];
  /** Where the session contradicts the manifest: findings at the manifest's lines. */
  readonly drift?: readonly Finding[];
};

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

function auditTrace(file: string, options: JudgeOptions, manifest: LoadedManifest | undefined): AuditedTrace {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { file, findings: [traceProblem(file, readProblem(error as NodeJS.ErrnoException))] };
  }
  const read = readTrace(text);
  if (!read.ok) return { file, findings: read.problems.map((one) => traceProblem(file, one.message, one.line, one.column)) };
  const verdict = judgeSession(read.transcript, options);
  if (manifest === undefined) return { file, header: read.header, verdict, findings: sessionFindings(verdict, file) };
  // With a manifest, a failure about a request of one of its operations is reported at that operation's claim.
  const judged = sessionFindings(verdict, file, manifestPlacer(manifest, verdict.session));
  const drift = sessionDrift(manifest, verdict.session, options, file);
  return {
    file,
    header: read.header,
    verdict,
    findings: judged.filter((finding) => finding.file === file),
    claims: drift.claims,
    drift: [...judged.filter((finding) => finding.file !== file), ...drift.findings],
  };
}

function claimLines(claims: readonly SessionClaim[]): string[] {
  const label = { seen: 'SEEN', contradicted: 'CONTRADICTED', inconclusive: 'INCONCLUSIVE' } as const;
  return claims.map(
    (claim) =>
      `  ${label[claim.status].padEnd(14)} ${claim.operation} ${claim.field}: ${displayText(claim.value)} — ${displayText(claim.why)}`,
  );
}

/**
 * `mcprely audit <trace.jsonl…>`: judges recorded sessions (`mcprely proxy --record`) with the same judges the
 * proxy runs, as findings at the trace lines in the lint formats; stylish adds each judge's status. Exit 1 on a
 * finding at or above the fail severity, 2 when a trace cannot be read (the others are still judged), 3 when
 * nothing failed and no judge was exercised (no judge could pass: nothing shown, nothing passed).
 */
export function runAudit(traces: readonly string[], options: AuditOptions, toolVersion: string): number {
  if (options.html !== undefined && traces.length !== 1) {
    process.stderr.write(`error: --html draws one session: name one trace (${traces.length} given)\n`);
    return 2;
  }
  const manifest = readOptionalManifest(options.manifest);
  if (manifest === false) return 2;
  const judge = manifest === undefined ? options.judge : { ...options.judge, claimsFor: manifestClaims(manifest) };
  const audited = traces.map((file) => auditTrace(file, judge, manifest));
  const reports = audited.map((one) => fileReport(one.file, one.findings));
  if (manifest !== undefined) {
    // The manifest's findings in the order of its lines, whichever trace and judge they came from.
    const at = (finding: Finding) => (finding.range?.start.line ?? 0) * 1e6 + (finding.range?.start.column ?? 0);
    reports.push(
      fileReport(
        manifest.file,
        [...audited.flatMap((one) => one.drift ?? [])].sort((a, b) => at(a) - at(b)),
      ),
    );
  }
  const result = lintResult(reports);
  for (const output of options.outputs) {
    const color = output.file === undefined && useColor(process.stdout);
    let text = FORMATTERS[output.format](result, {
      toolVersion,
      rules: [...SESSION_RULES, ...INPUT_RULES, ...(manifest === undefined ? [] : DRIFT_RULES)],
      color,
      category: 'mcprely-audit',
      sourceRoot: process.cwd(),
    });
    if (output.format === 'stylish')
      for (const one of audited)
        if (one.verdict !== undefined)
          text +=
            `\n${displayText(one.file)}: the judges (${one.verdict.session.transcript.messages.length} messages)\n` +
            `${judgementLines(one.verdict.judgements).join('\n')}\n` +
            (one.claims === undefined
              ? ''
              : `\n${displayText(one.file)}: the claims of ${displayText(manifest?.file ?? '')} (a claim not seen stands as declared)\n` +
                `${claimLines(one.claims).join('\n')}\n`);
    if (output.file === undefined) process.stdout.write(text);
    else writeOutputFile(output.file, text);
  }
  const [only] = audited;
  if (options.html !== undefined && (only?.verdict === undefined || only.header === undefined))
    process.stderr.write(`mcprely audit: no page written to ${displayText(options.html)}: the trace cannot be read (see above)\n`);
  else if (options.html !== undefined && only?.verdict !== undefined && only.header !== undefined)
    writeOutputFile(
      options.html,
      sessionPage({
        trace: only.file,
        header: only.header,
        verdict: only.verdict,
        ...(only.claims === undefined || manifest === undefined ? {} : { claims: only.claims, manifest: manifest.file }),
      }),
      'the session page',
    );
  const code = exitCodeOf(result, { failSeverity: options.failSeverity });
  if (code !== 0) return code;
  // Failures below the threshold pass the run: say so, since probe-client fails on warnings by default (one rule, two defaults).
  const below = result.summary.errors + result.summary.warnings + result.summary.infos;
  if (below > 0)
    process.stderr.write(
      `mcprely audit: exit 0: ${plural(below, 'failure')} below --fail-severity ${options.failSeverity} ` +
        '(warnings rest on a SHOULD or the lesson); --fail-severity warn fails on them, as probe-client does by default\n',
    );
  const exercised = audited.some(
    (one) =>
      one.verdict?.judgements.some((judgement) => judgement.status === 'pass' || judgement.status === 'fail') ||
      one.claims?.some((claim) => claim.status !== 'inconclusive'),
  );
  if (!exercised) {
    process.stderr.write("inconclusive: no judge was exercised by these sessions (see each judge's reason above); nothing passed\n");
    return 3;
  }
  return 0;
}
