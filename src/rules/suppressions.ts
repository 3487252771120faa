import type { Finding } from '../findings/finding.js';
import type { LoadedManifest } from '../manifest/load.js';
import { makeProblem, type DocumentProblem } from '../document/problem.js';
import { closestMatch } from '../document/did-you-mean.js';
import { locate } from '../document/source-map.js';

interface Ignore {
  readonly rule: string;
  readonly reason: string;
}

/**
 * Applies the manifest's x-mcprely-ignore entries: at the top level for the whole file, on an operation
 * for the findings about that operation. Suppressed findings stay in the report, marked, with the reason.
 * An entry naming an unknown rule is a problem with its place.
 */
export function applySuppressions(
  manifest: LoadedManifest,
  findings: readonly Finding[],
  knownRules: ReadonlySet<string>,
): { findings: Finding[]; problems: DocumentProblem[] } {
  const problems: DocumentProblem[] = [];
  const collect = (ignores: readonly Ignore[] | undefined, path: readonly (string | number)[]): Map<string, string> => {
    const byRule = new Map<string, string>();
    (ignores ?? []).forEach((ignore, index) => {
      if (!knownRules.has(ignore.rule)) {
        const suggestion = closestMatch(ignore.rule, knownRules);
        const place = locate(manifest.source, [...path, 'x-mcprely-ignore', index, 'rule']);
        problems.push(
          makeProblem('schema', {
            messageId: 'unknown-rule',
            template: 'x-mcprely-ignore names the unknown rule "{rule}"{hint}',
            data: { rule: ignore.rule, hint: suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)` },
            fix: suggestion === undefined ? 'use a rule id that mcprely rules lists' : `use ${suggestion}`,
            path: [...path, 'x-mcprely-ignore', index, 'rule'],
            start: place.start,
            end: place.end,
          }),
        );
      }
      byRule.set(ignore.rule, ignore.reason);
    });
    return byRule;
  };
  const fileWide = collect(manifest.manifest['x-mcprely-ignore'], []);
  const perOperation = manifest.manifest.operations.map((operation, index) =>
    collect(operation['x-mcprely-ignore'], ['operations', index]),
  );
  const result = findings.map((finding) => {
    const operationIndex = /^\/operations\/(\d+)(\/|$)/.exec(finding.path)?.[1];
    const reason =
      (operationIndex === undefined ? undefined : perOperation[Number(operationIndex)]?.get(finding.ruleId)) ??
      fileWide.get(finding.ruleId);
    return reason === undefined ? finding : { ...finding, suppression: { kind: 'in-source' as const, justification: reason } };
  });
  return { findings: result, problems };
}
