import { RULE_HEADS, RULES_DIGEST } from '../generated/rule-heads.js';
import type { RuleHead } from './rule-types.js';

/**
 * The head of each rule shipped in rules/*.yaml (generated at build time with the definitions, in the same order):
 * all that a configuration's severities and the lint cache's key need, so a `lint --cache` run whose files are all
 * unchanged never parses the definitions themselves (bundled-definitions.ts).
 */
export const BUNDLED_RULE_HEADS = RULE_HEADS as readonly RuleHead[];

/** SHA-1 of the bundled definitions' canonical JSON: any change to a shipped rule changes it. */
export const BUNDLED_RULES_DIGEST = RULES_DIGEST;
