import type { RuleDescriptor } from '../findings/rule-descriptor.js';

/**
 * Where rule pages are linked from a report: `<base><rule id>.md`. `absolute` is an http(s) URL (given with
 * --docs-url, or by the GitHub Action from its own repository and ref); otherwise `base` is a path relative to
 * the report, reaching the installed package's docs/rules/.
 */
export interface RuleDocsBase {
  readonly base: string;
  readonly absolute: boolean;
}

/** What a formatter may need besides the findings. */
export interface ReportContext {
  readonly toolVersion: string;
  /** Every rule that could have reported (input rules included), for SARIF's rule table and for links. */
  readonly rules: readonly RuleDescriptor[];
  /** ANSI colour (stylish only). */
  readonly color: boolean;
  /** Where rule pages are; absent: rule ids are not linked. */
  readonly ruleDocs?: RuleDocsBase;
  /** SARIF `automationDetails.id`: one category per manifest set, so code scanning keeps each set's alerts apart. */
  readonly category?: string;
  /** The absolute folder reported file paths are relative to: SARIF's `%SRCROOT%`. */
  readonly sourceRoot?: string;
}

/** The link to a rule's page, when the rule has one and the report knows where pages are. */
export function ruleDocLink(
  context: Pick<ReportContext, 'ruleDocs'>,
  rule: Pick<RuleDescriptor, 'id' | 'docPage'> | undefined,
): string | undefined {
  if (context.ruleDocs === undefined || rule?.docPage === undefined) return undefined;
  return `${context.ruleDocs.base}${encodeURIComponent(rule.id)}.md`;
}

/** The default SARIF category when a run names none. */
export const DEFAULT_CATEGORY = 'mcprely';
