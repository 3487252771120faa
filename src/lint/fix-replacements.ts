import { applyFixes, placeOfFix } from '../document/apply-fixes.js';
import { parsePointer } from '../document/json-pointer.js';
import { LineIndex } from '../document/line-index.js';
import { syntaxOf } from '../document/parse-document.js';
import type { SourceNode } from '../document/source-map.js';
import { type Autofix, changeOf, type Finding } from '../findings/finding.js';

/**
 * Each fix of a file's findings (layout fix, claim change or suggestion) with the text change that makes it, for SARIF's
 * `fixes`: the fix applied alone to the text lint parsed, at the place --fix would make it. Worked out while
 * the parsed document is at hand, so SARIF never parses a file a second time.
 */
export function withFixReplacements(findings: readonly Finding[], file: string, text: string, source: SourceNode): Finding[] {
  const fixable = (finding: Finding) => finding.autofix !== undefined || finding.claimFix !== undefined || finding.suggestion !== undefined;
  if (!findings.some(fixable)) return [...findings];
  const format = syntaxOf(file);
  let lines: LineIndex | undefined;
  // Findings of many operations often share one fix (a default they all inherit): each is worked out once.
  const known = new Map<string, Autofix['replacement'] | null>();
  const withText = (finding: Finding, fix: Autofix): Autofix => {
    const edit = { path: placeOfFix(source, parsePointer(finding.path)), change: changeOf(fix) };
    const id = JSON.stringify(edit);
    let replacement = known.get(id);
    if (replacement === undefined) {
      const splice = applyFixes(text, source, [edit], format).splices[0];
      lines ??= new LineIndex(text);
      replacement =
        splice === undefined
          ? null
          : { start: lines.position(splice.at), end: lines.position(splice.at + splice.length), text: splice.text };
      known.set(id, replacement);
    }
    return replacement === null ? fix : { ...fix, replacement };
  };
  return findings.map((finding) =>
    fixable(finding)
      ? {
          ...finding,
          ...(finding.autofix === undefined ? {} : { autofix: withText(finding, finding.autofix) }),
          ...(finding.claimFix === undefined ? {} : { claimFix: withText(finding, finding.claimFix) }),
          ...(finding.suggestion === undefined ? {} : { suggestion: withText(finding, finding.suggestion) }),
        }
      : finding,
  );
}
