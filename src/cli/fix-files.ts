import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { applyFixes, type FixEdit, placeOfFix } from '../document/apply-fixes.js';
import { LineIndex } from '../document/line-index.js';
import { parseDocumentBytes } from '../document/parse-document.js';
import type { PathSegment } from '../document/source-map.js';
import type { FileReport } from '../lint/file-report.js';
import { displayText } from '../text/display-text.js';
import { readManifestFile } from './read-manifest-file.js';

const MAX_PASSES = 5;
const BOM = '\uFEFF';

/** What --fix or --fix-dry-run did to one file. */
export interface FixedFile {
  readonly file: string;
  readonly before: string;
  readonly after: string;
  readonly fixes: number;
}

/**
 * Applies the safe fixes of each report's live findings (never a suppressed one), relints, and repeats while a
 * pass still fixes something (at most five passes, as a fix can uncover another); `write` saves each changed
 * file, `dry-run` leaves it. Returns the reports of the fixed texts and what changed. A fixed text that would
 * not parse is not used.
 */
export function fixReports(
  reports: readonly FileReport[],
  cwd: string,
  mode: 'write' | 'dry-run',
  relint: (file: string, bytes: Uint8Array) => FileReport,
): { readonly reports: FileReport[]; readonly fixed: FixedFile[]; readonly notes: string[] } {
  const fixed: FixedFile[] = [];
  const notes: string[] = [];
  const out = reports.map((report) => {
    if (report.inputError) return report;
    const read = readManifestFile(resolve(cwd, report.file));
    if (!read.ok) return report;
    const bom = read.bytes[0] === 0xef && read.bytes[1] === 0xbb && read.bytes[2] === 0xbf ? BOM : '';
    const parsed = parseDocumentBytes(report.file, read.bytes);
    if (!parsed.ok) return report;
    const before = parsed.text;
    let text = before;
    let current = report;
    let fixes = 0;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const again = parseDocumentBytes(report.file, new TextEncoder().encode(text));
      if (!again.ok) break;
      const source = again.document.source;
      const edits: FixEdit[] = current.findings
        .filter((finding) => finding.autofix !== undefined && finding.suppression === undefined)
        .map((finding) => ({ path: placeOfFix(source, segmentsOf(finding.path)), value: finding.autofix!.set }));
      if (edits.length === 0) break;
      const applied = applyFixes(text, again.document.source, edits, /\.json$/i.test(report.file) ? 'json' : 'yaml');
      if (applied.text === text) break;
      const bytes = new TextEncoder().encode(`${bom}${applied.text}`);
      if (!parseDocumentBytes(report.file, bytes).ok) {
        notes.push(`${displayText(report.file)}: the fixes would not parse; the file is left as it was`);
        break;
      }
      text = applied.text;
      fixes += applied.splices.length;
      current = relint(report.file, bytes);
    }
    if (text === before) return report;
    if (mode === 'write') writeFileSync(resolve(cwd, report.file), `${bom}${text}`);
    fixed.push({ file: report.file, before, after: text, fixes });
    return current;
  });
  return { reports: out, fixed, notes };
}

/** A JSON Pointer's segments, numbers for sequence indexes. */
export function segmentsOf(pointer: string): PathSegment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment));
}

/** A unified diff of one file's change, with two lines of context around each changed run of lines. */
export function unifiedDiff(file: string, before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  const runs = changedRuns(a, b);
  const lines = [`--- a/${file}`, `+++ b/${file}`];
  const CONTEXT = 2;
  let index = 0;
  while (index < runs.length) {
    // One hunk: runs whose context touches, with the equal lines between them as context.
    let last = index;
    while (last + 1 < runs.length && runs[last + 1]!.aStart - runs[last]!.aEnd <= 2 * CONTEXT) last++;
    const first = runs[index]!;
    const final = runs[last]!;
    const from = Math.max(0, first.aStart - CONTEXT);
    const to = Math.min(a.length, final.aEnd + CONTEXT);
    const bFrom = first.bStart - (first.aStart - from);
    const bTo = final.bEnd + (to - final.aEnd);
    lines.push(`@@ -${from + 1},${to - from} +${bFrom + 1},${bTo - bFrom} @@`);
    for (let line = from; line < first.aStart; line++) lines.push(` ${a[line]}`);
    for (let run = index; run <= last; run++) {
      const current = runs[run]!;
      for (let line = current.aStart; line < current.aEnd; line++) lines.push(`-${a[line]}`);
      for (let line = current.bStart; line < current.bEnd; line++) lines.push(`+${b[line]}`);
      const next = runs[run + 1];
      const until = run < last && next !== undefined ? next.aStart : to;
      for (let line = current.aEnd; line < until; line++) lines.push(` ${a[line]}`);
    }
    index = last + 1;
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The runs of lines that differ, found by walking both texts together: fixes only replace a value within a line
 * or add whole lines, so a line of `before` that is not the next line of `after` was changed, and lines of
 * `after` that match none ahead were added.
 */
function changedRuns(a: readonly string[], b: readonly string[]): { aStart: number; aEnd: number; bStart: number; bEnd: number }[] {
  const runs: { aStart: number; aEnd: number; bStart: number; bEnd: number }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    const start = { i, j };
    // Added lines: b runs ahead until it meets a[i] again (within a window, to stay linear).
    let added = 0;
    while (j + added < b.length && added < 50 && b[j + added] !== a[i]) added++;
    if (i < a.length && j + added < b.length && b[j + added] === a[i] && added > 0) j += added;
    else {
      // A changed line (replaced in place).
      i = Math.min(i + 1, a.length);
      j = Math.min(j + 1, b.length);
    }
    const previous = runs.at(-1);
    if (previous !== undefined && previous.aEnd === start.i && previous.bEnd === start.j) {
      previous.aEnd = i;
      previous.bEnd = j;
    } else runs.push({ aStart: start.i, aEnd: i, bStart: start.j, bEnd: j });
  }
  return runs;
}

/**
 * Each safe fix of a report as the text change that makes it, for SARIF's `fixes`: the fix applied alone to
 * the file as it is. Findings without a safe fix, and files that cannot be read or parsed, are left as they are.
 */
export function withReplacements(report: FileReport, cwd: string): FileReport {
  if (report.inputError || !report.findings.some((finding) => finding.autofix !== undefined)) return report;
  const read = readManifestFile(resolve(cwd, report.file));
  if (!read.ok) return report;
  const parsed = parseDocumentBytes(report.file, read.bytes);
  if (!parsed.ok) return report;
  const { text, document } = parsed;
  const lines = new LineIndex(text);
  const format = /\.json$/i.test(report.file) ? 'json' : 'yaml';
  return {
    ...report,
    findings: report.findings.map((finding) => {
      if (finding.autofix === undefined) return finding;
      const edit = { path: placeOfFix(document.source, segmentsOf(finding.path)), value: finding.autofix.set };
      const splice = applyFixes(text, document.source, [edit], format).splices[0];
      if (splice === undefined) return finding;
      const replacement = { start: lines.position(splice.at), end: lines.position(splice.at + splice.length), text: splice.text };
      return { ...finding, autofix: { ...finding.autofix, replacement } };
    }),
  };
}
