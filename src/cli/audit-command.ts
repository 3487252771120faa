import type { Severity } from '../findings/finding.js';
import { type AuditOptions as AuditApiOptions, audit } from '../api/audit.js';
import type { JudgeOptions } from '../judges/judge-options.js';
import { judgementLines } from '../judges/session-rules.js';
import type { SessionClaim } from '../judges/session-drift.js';
import { FORMATTERS } from '../report/formats.js';
import { displayText } from '../text/display-text.js';
import { plural } from '../text/plural.js';
import { writeOutputFile } from '../workspace/output-files.js';
import { sessionPage } from '../audit/session-page.js';
import { useColor } from './color.js';
import type { OutputSpec } from './output-spec.js';

export interface AuditCommandOptions {
  readonly judge: JudgeOptions;
  readonly manifest?: string;
  /** Where to write the page of the session (one trace): the verdict, and the diagrams of what decided it. */
  readonly html?: string;
  readonly failSeverity: Severity;
  readonly outputs: readonly OutputSpec[];
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
export function runAudit(traces: readonly string[], options: AuditCommandOptions, toolVersion: string): number {
  if (options.html !== undefined && traces.length !== 1) {
    process.stderr.write(`error: --html draws one session: name one trace (${traces.length} given)\n`);
    return 2;
  }
  const request: AuditApiOptions = {
    traces,
    judge: options.judge,
    failSeverity: options.failSeverity,
    ...(options.manifest === undefined ? {} : { manifest: options.manifest }),
  };
  const audited = audit(request);
  if (!audited.ok) {
    process.stderr.write(audited.problem);
    return 2;
  }
  const { result, manifest } = audited;
  for (const output of options.outputs) {
    const color = output.file === undefined && useColor(process.stdout);
    let text = FORMATTERS[output.format](result, {
      toolVersion,
      rules: audited.rules,
      color,
      category: 'mcprely-audit',
      sourceRoot: process.cwd(),
    });
    if (output.format === 'stylish')
      for (const one of audited.traces)
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
  const [only] = audited.traces;
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
  if (audited.exitCode !== 0 && audited.exitCode !== 3) return audited.exitCode;
  // Failures below the threshold pass the run: say so, since probe-client fails on warnings by default (one rule, two defaults).
  const below = audited.belowFailSeverity;
  if (below > 0)
    process.stderr.write(
      `mcprely audit: exit 0: ${plural(below, 'failure')} below --fail-severity ${options.failSeverity} ` +
        '(warnings rest on a SHOULD or the lesson); --fail-severity warn fails on them, as probe-client does by default\n',
    );
  if (audited.exitCode === 3)
    process.stderr.write("inconclusive: no judge was exercised by these sessions (see each judge's reason above); nothing passed\n");
  return audited.exitCode;
}
