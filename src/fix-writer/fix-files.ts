import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { applyFixes, type FixEdit, placeOfFix } from '../document/apply-fixes.js';
import { parseDocumentBytes, syntaxOf } from '../document/parse-document.js';
import { parsePointer } from '../document/json-pointer.js';
import { reach, type SourceNode } from '../document/source-map.js';
import { type Autofix, changeOf, describeChange, type Finding } from '../findings/finding.js';
import type { FileReport } from '../lint/file-report.js';
import type { FixKind } from '../rules/rule-types.js';
import { displayText } from '../text/display-text.js';

const MAX_PASSES = 5;
const BOM = '\uFEFF';

/** What --fix or --fix-dry-run did to one file. */
export interface FixedFile {
  readonly file: string;
  readonly before: string;
  readonly after: string;
  readonly fixes: number;
  /** One line per claim change applied: what the manifest now claims, for the code to be changed to match. */
  readonly todos: readonly string[];
}

/** The fix of a finding of each kind --fix-type asked for (a claim change only with `claim`), never a suppressed one. */
function fixOf(finding: Finding, kinds: ReadonlySet<FixKind>): { fix: Autofix; kind: FixKind } | undefined {
  if (finding.suppression !== undefined) return undefined;
  if (finding.autofix !== undefined && kinds.has('layout')) return { fix: finding.autofix, kind: 'layout' };
  if (finding.claimFix !== undefined && kinds.has('claim')) return { fix: finding.claimFix, kind: 'claim' };
  return undefined;
}

/**
 * Applies the fixes of the kinds asked for (`layout` by default; a claim change only with `claim`) of each
 * report's live findings (never a suppressed one), relints, and repeats while a pass still fixes something (at
 * most five passes, as a fix can uncover another); `write` saves each changed file, `dry-run` leaves it. Works
 * on the bytes lint read (`bytesOf`), never on a second read of the file. Returns the reports of the fixed
 * texts and what changed, with a to-do for each claim change. A fixed text that would not parse is not used.
 */
export function fixReports(
  reports: readonly FileReport[],
  bytesOf: (file: string) => Uint8Array | undefined,
  cwd: string,
  mode: 'write' | 'dry-run',
  relint: (file: string, bytes: Uint8Array) => FileReport,
  kinds: ReadonlySet<FixKind> = new Set(['layout']),
): { readonly reports: FileReport[]; readonly fixed: FixedFile[]; readonly notes: string[] } {
  const fixed: FixedFile[] = [];
  const notes: string[] = [];
  const out = reports.map((report) => {
    const read = report.inputError ? undefined : bytesOf(report.file);
    if (read === undefined) return report;
    const bom = read[0] === 0xef && read[1] === 0xbb && read[2] === 0xbf ? BOM : '';
    let parsed = parseDocumentBytes(report.file, read);
    if (!parsed.ok) return report;
    const before = parsed.text;
    let current = report;
    let fixes = 0;
    let todos: string[] = [];
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const source = parsed.document.source;
      const claims: { finding: Finding; edit: FixEdit }[] = [];
      const edits: FixEdit[] = [];
      for (const finding of current.findings) {
        const chosen = fixOf(finding, kinds);
        if (chosen === undefined) continue;
        const edit = { path: placeOfFix(source, parsePointer(finding.path)), change: changeOf(chosen.fix) };
        edits.push(edit);
        if (chosen.kind === 'claim') claims.push({ finding, edit });
      }
      if (edits.length === 0) break;
      const applied = applyFixes(parsed.text, source, edits, syntaxOf(report.file));
      if (applied.text === parsed.text) break;
      const passTodos = claims
        .filter(({ edit }) => !applied.skipped.includes(edit))
        .map(({ finding, edit }) => claimTodo(finding, edit, parsed.text, source));
      const bytes = new TextEncoder().encode(`${bom}${applied.text}`);
      const next = parseDocumentBytes(report.file, bytes);
      if (!next.ok) {
        notes.push(`${displayText(report.file)}: the fixes would not parse; the file is left as it was`);
        break;
      }
      parsed = next;
      todos = [...todos, ...passTodos];
      fixes += applied.splices.length;
      current = relint(report.file, bytes);
    }
    if (parsed.text === before) return report;
    if (mode === 'write') writeFileSync(resolve(cwd, report.file), `${bom}${parsed.text}`);
    fixed.push({ file: report.file, before, after: parsed.text, fixes, todos: [...new Set(todos)] });
    return current;
  });
  return { reports: out, fixed, notes };
}

/**
 * The to-do a claim change leaves: `slow_job: now claims cancellation.suppressResponseAfterCancel: true — change
 * the code; `mcprely drift` checks it`, with a word on the comment of the changed line, which was kept and may
 * now say the opposite.
 */
function claimTodo(finding: Finding, edit: FixEdit, text: string, source: SourceNode): string {
  const operation = displayText(String(finding.data['operation'] ?? finding.file));
  const change = edit.change;
  // The field as describeChange names it (an operation's own field, without operations/<n>).
  const field = describeChange({ remove: true }, finding.path).replace(/^remove /, '');
  const claim =
    'set' in change
      ? `now claims ${field}: ${JSON.stringify(change.set)}`
      : 'remove' in change
        ? `no longer claims ${field}`
        : `now claims ${field} includes ${JSON.stringify(change.add)}`;
  const comment = 'set' in change ? trailingComment(text, source, edit.path) : undefined;
  const reword = comment === undefined ? '' : `; the comment kept on its line (${displayText(comment)}) may need rewording`;
  return `${displayText(finding.file)}: ${operation}: ${claim} — change the code; \`mcprely drift\` checks it${reword}`;
}

/** The comment after the value at `path` on its line, when the value is written there and has one. */
function trailingComment(text: string, source: SourceNode, path: FixEdit['path']): string | undefined {
  const { node, depth } = reach(source, path);
  if (depth !== path.length || node.kind !== 'scalar') return undefined;
  const lineEnd = text.indexOf('\n', node.end);
  const rest = text.slice(node.end, lineEnd === -1 ? undefined : lineEnd);
  const at = rest.search(/(^|\s)#/);
  return at === -1 ? undefined : rest.slice(at).trim();
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
 * The runs of lines that differ, found by walking both texts together: fixes replace a value within a line, add
 * whole lines or remove them, so where the texts part, lines of `after` until the next line of `before` were
 * added, lines of `before` until the next line of `after` were removed, or else one line was changed.
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
    // Added lines: b runs ahead until it meets a[i] again; removed lines: a runs ahead until it meets b[j]
    // (each within a window, to stay linear); else one line replaced in place.
    const added = aheadUntil(b, j, a[i]);
    const removed = aheadUntil(a, i, b[j]);
    if (i < a.length && added > 0 && (removed === 0 || added <= removed)) j += added;
    else if (j < b.length && removed > 0) i += removed;
    else {
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

/** How many lines of `lines` from `from` come before one equal to `wanted` (0 when none within 50 lines). */
function aheadUntil(lines: readonly string[], from: number, wanted: string | undefined): number {
  if (wanted === undefined) return 0;
  for (let step = 1; step <= 50 && from + step < lines.length; step++) if (lines[from + step] === wanted) return step;
  return 0;
}
