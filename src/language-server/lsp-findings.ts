import {
  type CodeAction,
  CodeActionKind,
  type Diagnostic,
  DiagnosticSeverity,
  type Hover,
  MarkupKind,
  type Position,
  type Range,
} from 'vscode-languageserver/node.js';
import { changeOf, describeChange } from '../document/fix-change.js';
import type { Autofix, Finding, Severity } from '../findings/finding.js';
import type { RuleDescriptor } from '../findings/rule-descriptor.js';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warn: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

/** What the editor is told for a finding: its place and severity as `lint` gives them, its rule and that rule's page. */
export function diagnosticOf(finding: Finding, index: number, pageOf: (ruleId: string) => string | undefined): Diagnostic {
  const page = pageOf(finding.ruleId);
  return {
    range: rangeOf(finding),
    severity: SEVERITY[finding.severity],
    code: finding.ruleId,
    ...(page === undefined ? {} : { codeDescription: { href: page } }),
    source: 'mcprely',
    message: finding.fix === undefined ? finding.message : `${finding.message}. ${finding.fix}`,
    // Which finding of the document's latest lint it is: code actions and hovers find it again by this.
    data: { finding: index },
  };
}

/** A finding's range in the editor's terms: lines and UTF-16 columns from 0 (lint counts both from 1); a file-level one at the start. */
export function rangeOf(finding: Finding): Range {
  if (finding.range === undefined) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return { start: positionOf(finding.range.start), end: positionOf(finding.range.end) };
}

function positionOf(place: { readonly line: number; readonly column: number }): Position {
  return { line: place.line - 1, character: place.column - 1 };
}

/**
 * The code actions of a finding: its layout fix (the one `lint --fix` applies, preferred), its claim change
 * (not preferred: it changes what the manifest says the server does, so the server has to be made to do it)
 * and its suggestion (a value for a person to check), each as the text edit that makes it. Nothing is written
 * until one is picked.
 */
export function codeActionsOf(finding: Finding, diagnostic: Diagnostic, uri: string, version: number): CodeAction[] {
  const actions: CodeAction[] = [];
  const add = (fix: Autofix | undefined, title: (change: string) => string, preferred: boolean) => {
    if (fix?.replacement === undefined) return;
    const { start, end, text } = fix.replacement;
    actions.push({
      title: title(describeChange(changeOf(fix), finding.path)),
      kind: CodeActionKind.QuickFix,
      diagnostics: [diagnostic],
      isPreferred: preferred,
      edit: {
        documentChanges: [
          { textDocument: { uri, version }, edits: [{ range: { start: positionOf(start), end: positionOf(end) }, newText: text }] },
        ],
      },
    });
  };
  add(finding.autofix, (change) => `Fix: ${change}`, true);
  add(finding.claimFix, () => `${claimTitle(finding.claimFix!, finding.path)}; make the server do it`, false);
  add(finding.suggestion, (change) => `Suggested: ${change} (check the value)`, false);
  return actions;
}

/** `claims cancellation.suppressResponseAfterCancel: true`, `no longer claims cancellation.serverSendsCancelled`. */
function claimTitle(change: Autofix, path: string): string {
  // The field as describeChange names it (an operation's own field, without operations/<n>).
  const field = describeChange({ remove: true }, path).replace(/^remove /, '');
  if ('set' in change) return `claims ${field}: ${JSON.stringify(change.set)}`;
  if ('remove' in change) return `no longer claims ${field}`;
  return `claims ${field} includes ${JSON.stringify(change.add)}`;
}

/** The hover over a finding: its rule, the rule's help (as the SARIF log carries it: why, the fix, examples) and a link to its page. */
export function hoverOf(
  findings: readonly Finding[],
  rules: ReadonlyMap<string, RuleDescriptor>,
  pageOf: (ruleId: string) => string | undefined,
): Hover {
  const parts = findings.map((finding) => {
    const rule = rules.get(finding.ruleId);
    const page = pageOf(finding.ruleId);
    const help = rule === undefined ? '' : `\n\n${rule.helpMarkdown ?? `${rule.rationale}\n\n**Fix.** ${rule.fix}`}`;
    return `**${finding.ruleId}**${rule === undefined ? '' : ` — ${rule.description}`}${help}${page === undefined ? '' : `\n\n[The rule's page](${page})`}`;
  });
  return { contents: { kind: MarkupKind.Markdown, value: parts.join('\n\n---\n\n') } };
}

/** Whether the position falls within the range (its end included, so a cursor just after a key still counts). */
export function contains(range: Range, position: Position): boolean {
  const after = (a: Position, b: Position) => a.line > b.line || (a.line === b.line && a.character >= b.character);
  return after(position, range.start) && after(range.end, position);
}
