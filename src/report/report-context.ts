import type { RuleDescriptor } from '../findings/rule-descriptor.js';

/** Where rule documentation lives; SARIF helpUri and the markdown report link here. */
export const RULE_DOCS_BASE_URL = 'https://github.com/mcprely/mcprely/blob/main/docs/rules/';

export function ruleDocsUrl(ruleId: string): string {
  return `${RULE_DOCS_BASE_URL}${ruleId}.md`;
}

/** What a formatter may need besides the findings. */
export interface ReportContext {
  readonly toolVersion: string;
  /** Every rule that could have reported (input rules included), for SARIF's rule table and for links. */
  readonly rules: readonly RuleDescriptor[];
  /** ANSI colour (stylish only). */
  readonly color: boolean;
}
