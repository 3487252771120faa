import type { Finding, Severity } from '../../src/findings/finding.js';
import { lintFile } from '../../src/lint/lint-file.js';
import { bundledRules } from '../../src/rules/load-rules.js';

/** Lints manifest text with the given rules on (default: every rule at its own severity). */
export function lintText(text: string, only?: readonly string[], file = 'manifest.yaml'): Finding[] {
  const ruleSet = bundledRules();
  const severities = new Map<string, Severity>(
    ruleSet.rules
      .filter((rule) => only === undefined || only.includes(rule.definition.id))
      .map((rule) => [rule.definition.id, rule.definition.severity]),
  );
  return [...lintFile(file, new TextEncoder().encode(text), { ruleSet, severities }).findings];
}

/** A manifest with one server block and the given operations block (both YAML, indented as in a file). */
export function manifest(options: {
  specVersion?: string;
  server?: string;
  defaults?: string;
  operations: string;
  extra?: string;
}): string {
  const server = options.server ?? '{ name: demo, transports: [stdio] }';
  return `${[
    'mcprely: 1',
    `specVersion: "${options.specVersion ?? '2026-07-28'}"`,
    `server: ${server}`,
    ...(options.defaults === undefined ? [] : ['defaults:', options.defaults]),
    'operations:',
    options.operations,
    ...(options.extra === undefined ? [] : [options.extra]),
  ].join('\n')}\n`;
}
