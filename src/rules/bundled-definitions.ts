import definitions from '../generated/rules.js';
import type { RuleDefinition } from './rule-types.js';

/**
 * The definitions of the rules shipped in rules/*.yaml, bundled and checked against the rule schema at build
 * time; not compiled (`bundledRules` in load-rules.ts compiles them). What a configuration's severities and the
 * lint cache's key are made from, so a run that lints nothing need not load the rule engine.
 */
export const BUNDLED_DEFINITIONS = definitions as readonly RuleDefinition[];
