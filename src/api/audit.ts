import { readFileSync } from 'node:fs';
import { makeFinding, type Finding, type Severity } from '../findings/finding.js';
import type { RuleDescriptor } from '../findings/rule-descriptor.js';
import { INPUT_RULES } from '../findings/input-rules.js';
import { DEFAULT_GRACE_MS, DEFAULT_TOLERANCE_MS, type JudgeOptions } from '../judges/judge-options.js';
import { judgeSession, type SessionVerdict } from '../judges/judge-session.js';
import { SESSION_RULES, sessionFindings } from '../judges/session-rules.js';
import { manifestClaims, manifestPlacer, type SessionClaim, sessionDrift } from '../judges/session-drift.js';
import { readTrace, type TraceHeader } from '../judges/trace-format.js';
import { DRIFT_RULES } from '../live/drift-rules.js';
import type { LoadedManifest } from '../manifest/load.js';
import { fileReport } from '../lint/file-report.js';
import { exitCodeOf, type LintResult, lintResult } from '../lint/lint-result.js';
import { readOptionalManifest } from './manifest-input.js';

/** What a session is judged against; the tolerance and grace have defaults (1000 ms and 250 ms). */
export type SessionJudgeOptions = Omit<JudgeOptions, 'toleranceMs' | 'graceMs' | 'claimsFor'> &
  Partial<Pick<JudgeOptions, 'toleranceMs' | 'graceMs'>>;

/** What to judge: `mcprely audit`'s options as values. */
export interface AuditOptions {
  /** Trace files (JSON Lines) recorded by `mcprely proxy --record`, `probe --record` or `probe-client --record`. */
  readonly traces: readonly string[];
  /** The manifest each request is judged against: its operation's timeouts and key argument, and its claims (drift). */
  readonly manifest?: string;
  /** The client's timeouts, the tolerance and grace, the idempotency key's argument. */
  readonly judge?: SessionJudgeOptions;
  /** `exitCode` is 1 when a finding is at least this severe (default `error`). */
  readonly failSeverity?: Severity;
}

const TRACE_FILE_FIX = INPUT_RULES.find((rule) => rule.id === 'trace-file')?.fix ?? '';

/** A trace judged (and its manifest's claims, when one is given), or the findings that say why it cannot be. */
export type AuditedTrace = {
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

/** The sessions judged, or why the manifest cannot be used. */
export type AuditOutcome =
  | {
      readonly ok: true;
      /** Each trace: its header, the judges' verdict, its findings (or the findings that say why it cannot be read). */
      readonly traces: readonly AuditedTrace[];
      /** The manifest given, loaded. */
      readonly manifest?: LoadedManifest;
      /** The findings as a lint result: one file report per trace, and the manifest's (drift) last. */
      readonly result: LintResult;
      /** Every rule the result can name. */
      readonly rules: readonly RuleDescriptor[];
      /** Failures below `failSeverity` (they pass the run). */
      readonly belowFailSeverity: number;
      /**
       * 1 on a finding at or above the fail severity, 2 when a trace cannot be read, 3 when nothing failed and no
       * judge was exercised (nothing passed), else 0.
       */
      readonly exitCode: 0 | 1 | 2 | 3;
    }
  | { readonly ok: false; readonly problem: string };

/**
 * Judges recorded sessions with the judges the proxy runs: what the server and the client did, as findings at the
 * trace lines (and, with a manifest, at the claims the sessions contradict). A trace that cannot be read is
 * findings of its own; the others are still judged. Prints nothing.
 */
export function audit(options: AuditOptions): AuditOutcome {
  const input = readOptionalManifest(options.manifest);
  if (input !== undefined && !input.ok) return { ok: false, problem: input.report };
  const manifest = input?.manifest;
  const given: JudgeOptions = { toleranceMs: DEFAULT_TOLERANCE_MS, graceMs: DEFAULT_GRACE_MS, ...options.judge };
  const judge = manifest === undefined ? given : { ...given, claimsFor: manifestClaims(manifest) };
  const audited = options.traces.map((file) => auditTrace(file, judge, manifest));
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
  const rules = [...SESSION_RULES, ...INPUT_RULES, ...(manifest === undefined ? [] : DRIFT_RULES)];
  const failSeverity = options.failSeverity ?? 'error';
  const belowFailSeverity = result.summary.errors + result.summary.warnings + result.summary.infos;
  const base = { ok: true as const, traces: audited, ...(manifest === undefined ? {} : { manifest }), result, rules };
  const code = exitCodeOf(result, { failSeverity });
  if (code !== 0) return { ...base, belowFailSeverity: 0, exitCode: code };
  const exercised = audited.some(
    (one) =>
      one.verdict?.judgements.some((judgement) => judgement.status === 'pass' || judgement.status === 'fail') ||
      one.claims?.some((claim) => claim.status !== 'inconclusive'),
  );
  return { ...base, belowFailSeverity, exitCode: exercised ? 0 : 3 };
}
