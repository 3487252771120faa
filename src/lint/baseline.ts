import { stablePath } from '../findings/stable-path.js';
import type { FileReport } from './file-report.js';

/**
 * A baseline lists the findings an existing service accepted when it adopted mcprely, so a run fails only on
 * new ones. Entries are keyed by file, rule, operation name and the path inside the operation (not by line,
 * which shifts with every edit), with a count.
 */
export interface Baseline {
  readonly version: 1;
  readonly findings: readonly BaselineEntry[];
}

export interface BaselineEntry {
  readonly file: string;
  readonly ruleId: string;
  readonly path: string;
  readonly messageId: string;
  readonly count: number;
}

function keyOf(file: string, ruleId: string, path: string, messageId: string): string {
  return JSON.stringify([file, ruleId, path, messageId]);
}

/** `normalise` maps a reported file to the path stored in the baseline (relative, with forward slashes). */
export function createBaseline(reports: readonly FileReport[], normalise: (file: string) => string): Baseline {
  const counts = new Map<string, BaselineEntry>();
  for (const report of reports) {
    if (report.inputError) continue;
    for (const finding of report.findings) {
      if (finding.suppression !== undefined) continue;
      const entry = { file: normalise(report.file), ruleId: finding.ruleId, path: stablePath(finding), messageId: finding.messageId };
      const key = keyOf(entry.file, entry.ruleId, entry.path, entry.messageId);
      counts.set(key, { ...entry, count: (counts.get(key)?.count ?? 0) + 1 });
    }
  }
  const findings = [...counts.values()].sort(
    (a, b) => a.file.localeCompare(b.file) || a.ruleId.localeCompare(b.ruleId) || a.path.localeCompare(b.path),
  );
  return { version: 1, findings };
}

/** Marks findings the baseline accepts as suppressed, up to each entry's count; the rest stay live. */
export function applyBaseline(
  reports: readonly FileReport[],
  baseline: Baseline,
  normalise: (file: string) => string,
  baselineFile: string,
): FileReport[] {
  const remaining = new Map(baseline.findings.map((entry) => [keyOf(entry.file, entry.ruleId, entry.path, entry.messageId), entry.count]));
  return reports.map((report) => ({
    ...report,
    findings: report.findings.map((finding) => {
      if (finding.suppression !== undefined || report.inputError) return finding;
      const key = keyOf(normalise(report.file), finding.ruleId, stablePath(finding), finding.messageId);
      const left = remaining.get(key) ?? 0;
      if (left === 0) return finding;
      remaining.set(key, left - 1);
      return { ...finding, suppression: { kind: 'baseline' as const, justification: `accepted in ${baselineFile}` } };
    }),
  }));
}

/**
 * The entries (or the part of their count) that no finding of this run matched: findings fixed since the baseline
 * was written. Only files this run linted are judged, so linting part of a tree never calls the rest stale.
 */
export function staleEntries(reports: readonly FileReport[], baseline: Baseline, normalise: (file: string) => string): BaselineEntry[] {
  const linted = new Set(reports.filter((report) => !report.inputError).map((report) => normalise(report.file)));
  const found = new Map<string, number>();
  for (const report of reports) {
    if (report.inputError) continue;
    for (const finding of report.findings) {
      if (finding.suppression !== undefined && finding.suppression.kind !== 'baseline') continue;
      const key = keyOf(normalise(report.file), finding.ruleId, stablePath(finding), finding.messageId);
      found.set(key, (found.get(key) ?? 0) + 1);
    }
  }
  const stale: BaselineEntry[] = [];
  for (const entry of baseline.findings) {
    if (!linted.has(entry.file)) continue;
    const key = keyOf(entry.file, entry.ruleId, entry.path, entry.messageId);
    const left = entry.count - (found.get(key) ?? 0);
    if (left > 0) stale.push({ ...entry, count: left });
    found.set(key, Math.max(0, (found.get(key) ?? 0) - entry.count));
  }
  return stale;
}

/** The baseline without its stale entries (their counts taken off). */
export function prunedBaseline(baseline: Baseline, stale: readonly BaselineEntry[]): Baseline {
  const off = new Map(stale.map((entry) => [keyOf(entry.file, entry.ruleId, entry.path, entry.messageId), entry.count]));
  const findings = baseline.findings
    .map((entry) => ({ ...entry, count: entry.count - (off.get(keyOf(entry.file, entry.ruleId, entry.path, entry.messageId)) ?? 0) }))
    .filter((entry) => entry.count > 0);
  return { version: 1, findings };
}
