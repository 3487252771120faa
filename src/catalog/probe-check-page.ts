import type { CheckStatus } from '../live/outcome.js';

/** A probe check as the catalog reads it (src/probe declares it): its id, title, the spec line it rests on and its fix. */
export interface ProbeCheckFacts {
  readonly id: string;
  readonly title: string;
  readonly basis: string;
  readonly fix: string;
  /** The outcomes the check can give. */
  readonly outcomes: readonly CheckStatus[];
}

/** The id of a probe check where findings and the catalog name it: `probe-<id>` (its SARIF rule). */
export function probeCheckRuleId(check: ProbeCheckFacts): string {
  return `probe-${check.id}`;
}

/** A probe check's page, docs/rules/probe-<id>.md (and what `mcprely rules probe-<id>` prints). */
export function renderProbeCheckPage(check: ProbeCheckFacts): string {
  return [
    `# ${probeCheckRuleId(check)}`,
    '',
    '**Area:** probe · **Severity:** error · **Binds:** the server',
    '',
    `${check.title.charAt(0).toUpperCase()}${check.title.slice(1)}.`,
    '',
    `**What it rests on.** ${check.basis}.`,
    '',
    `**Fix.** ${check.fix.charAt(0).toUpperCase()}${check.fix.slice(1)}.`,
    '',
    `Checked by \`mcprely probe\` on a live server (shown as \`${check.id}\` in its report): it passes when the server was seen ` +
      'to hold the rule, fails when it was seen to break it, and is inconclusive or not observable when the run could not ' +
      'exercise or see it (the summary says why, and what would).',
    '',
  ].join('\n');
}
