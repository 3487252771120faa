import { makeFinding, type Finding, type Severity } from '../findings/finding.js';
import { LineIndex } from '../document/line-index.js';
import type { LoadedManifest } from '../manifest/load.js';
import type { RuleSet } from './load-rules.js';
import { manifestTarget, operationTargets, serverTarget, type RuleTarget } from './target.js';

/** Rule id → configured severity; a rule that is absent is off. */
export type RuleSeverities = ReadonlyMap<string, Severity>;

/** Runs every enabled rule that applies to the manifest's revision; returns findings in file order. Pure. */
export function runRules(manifest: LoadedManifest, ruleSet: RuleSet, severities: RuleSeverities): Finding[] {
  const specVersion = manifest.manifest.specVersion;
  const targets: Record<'operation' | 'server' | 'manifest', readonly RuleTarget[]> = {
    operation: operationTargets(manifest),
    server: [serverTarget(manifest)],
    manifest: [manifestTarget(manifest)],
  };
  let lines: LineIndex | undefined;
  const findings: { readonly finding: Finding; readonly offset: number }[] = [];
  for (const rule of ruleSet.rules) {
    const severity = severities.get(rule.definition.id);
    if (severity === undefined || !rule.appliesTo(specVersion)) continue;
    for (const target of targets[rule.definition.given]) {
      for (const violation of rule.run(target, severity)) {
        const span = violation.place.locate(violation.at);
        lines ??= new LineIndex(manifest.text);
        const finding = makeFinding({
          ruleId: rule.definition.id,
          severity: violation.severity,
          messageId: violation.messageId,
          data: violation.data,
          message: violation.message,
          file: manifest.file,
          path: violation.place.path,
          range: { start: lines.position(span.start), end: lines.position(span.end) },
          fix: violation.fix,
          // A rule's fix changes a claim unless the rule says it is layout alone.
          ...(rule.definition.fixKind === 'layout' ? { autofix: violation.autofix } : { claimFix: violation.autofix }),
          suggestion: violation.suggestion,
        });
        findings.push({ finding, offset: span.start });
      }
    }
  }
  findings.sort((a, b) => a.offset - b.offset);
  return findings.map(({ finding }) => finding);
}
