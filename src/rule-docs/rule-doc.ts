import type { RuleVerification } from '../findings/rule-verification.js';
import { describeChange } from '../findings/finding.js';
import type { CompiledRule } from '../rules/compiled-rule.js';
import { citationLines } from '../rules/rule-help.js';
import type { ExampleResults } from './rule-examples.js';

/** The doc page of a rule (docs/rules/<id>.md, and what `mcprely rules <id>` prints), with what mcprely says about its examples. */
export function renderRuleDoc(rule: CompiledRule, examples: ExampleResults): string {
  const definition = rule.definition;
  const preset = definition.recommended === false ? 'strict only' : 'recommended';
  const lines = [
    `# ${definition.id}`,
    '',
    `**Area:** ${definition.area} · **Severity:** ${definition.severity} · **Revisions:** ${rule.revisions.join(', ')} · **Preset:** ${preset}`,
    '',
    definition.description,
    '',
    '## Why',
    '',
    definition.rationale,
    '',
    '## What it rests on',
    '',
    ...definition.spec.flatMap(citationLines),
    '',
    ...verificationLines(definition.verification),
    '## Fix',
    '',
    definition.fix,
    '',
    ...fixLines(examples),
    '## Failing example',
    '',
    '```yaml',
    definition.examples.failing.trimEnd(),
    '```',
    '',
    'mcprely reports:',
    '',
    '```text',
    ...examples.failing.map(
      (finding) =>
        `${finding.range === undefined ? '' : `${finding.range.start.line}:${finding.range.start.column} `}${finding.severity} ${finding.message}`,
    ),
    '```',
    '',
    '## Passing example',
    '',
    '```yaml',
    definition.examples.passing.trimEnd(),
    '```',
    '',
    `mcprely reports ${examples.passing.length === 0 ? 'nothing for this rule' : `${examples.passing.length} finding(s)`}.`,
    '',
  ];
  return lines.join('\n');
}

/** A lint-only rule says why no fixture of `verify` shows what it reports (review and evidence show the same reason). */
function verificationLines(verification: RuleVerification | undefined): string[] {
  if (verification === undefined) return [];
  const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);
  if (verification.lintOnly !== undefined)
    return [
      '## Verification',
      '',
      `Lint-only because ${sentence(verification.lintOnly)} \`mcprely verify\` has no fixture for this rule; ` +
        'review and evidence show this reason instead of a pass.',
      '',
    ];
  return [
    '## Verification',
    '',
    'A value the manifest sets is shown by a `mcprely verify` fixture. A finding about a field left unset is lint-only ' +
      `because ${sentence(verification.whenUnset ?? '')} Review and evidence show this reason instead of a pass.`,
    '',
  ];
}

/** What `lint --fix` does, the claims it changes only when asked, and the values it suggests, for the failing example's findings. */
function fixLines(examples: ExampleResults): string[] {
  const distinct = (kind: 'autofix' | 'claimFix' | 'suggestion') => [
    ...new Set(
      examples.failing.flatMap((finding) => {
        const fix = finding[kind];
        return fix === undefined ? [] : [describeChange(fix, finding.path)];
      }),
    ),
  ];
  const fixes = distinct('autofix');
  const claims = distinct('claimFix');
  const suggestions = distinct('suggestion');
  return [
    ...(fixes.length === 0 ? [] : [`\`mcprely lint --fix\` does it for the failing example: ${fixes.join('; ')}.`, '']),
    ...(claims.length === 0
      ? []
      : [
          `A claim change for the failing example: ${claims.join('; ')}. It changes what the manifest says the server or its clients do, ` +
            'not what they do: make the code do it, then write it (`mcprely lint --fix --fix-type claim` writes it and lists the to-do; ' +
            '`mcprely drift` checks it against the running server). Plain `lint --fix` leaves it.',
          '',
        ]),
    ...(suggestions.length === 0
      ? []
      : [`Suggested for the failing example (a value for you to check; \`lint --fix\` leaves it to you): ${suggestions.join('; ')}.`, '']),
  ];
}
