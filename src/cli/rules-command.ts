import { closestMatch } from '../document/did-you-mean.js';
import { INPUT_RULES, renderDescriptorPage, renderInputRuleDoc } from '../findings/input-rules.js';
import { DRIFT_RULE_IDS, DRIFT_RULES } from '../probe/drift.js';
import { SESSION_RULE_IDS, SESSION_RULES } from '../judges/session-rules.js';
import { bundledRules, type RuleSet } from '../rules/load-rules.js';
import { loadSettings, SettingsError } from '../workspace/load-settings.js';
import { renderRuleDoc } from '../rule-docs/rule-doc.js';
import { runRuleExamples } from '../rule-docs/rule-examples.js';
import { RULE_AREAS } from '../rules/rule-types.js';
import { plural } from '../text/plural.js';

/**
 * `mcprely rules`: the catalogue by area; `mcprely rules <id>`: one rule's page — the bundled rules and the user's
 * own, from the configuration (`-c`, or mcprely.config.* in the working directory) that names their folders.
 */
export async function runRules(id: string | undefined, config: string | false | undefined = undefined): Promise<number> {
  let ruleSet: RuleSet;
  try {
    ruleSet = await (await loadSettings(config, process.cwd())).ruleSet();
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    process.stderr.write(error.report);
    return 2;
  }
  const builtIn = new Set(bundledRules().byId.keys());
  if (id === undefined) {
    const lines: string[] = [];
    for (const area of RULE_AREAS) {
      const rules = ruleSet.rules.filter((rule) => rule.definition.area === area);
      if (rules.length === 0) continue;
      lines.push(`${area}`);
      for (const { definition } of rules)
        lines.push(
          `  ${definition.id.padEnd(38)} ${definition.severity.padEnd(5)}  ${definition.description}${builtIn.has(definition.id) ? '' : ' (your rule)'}`,
        );
      lines.push('');
    }
    lines.push('input (a file that cannot be used: exit code 2)');
    for (const rule of INPUT_RULES) lines.push(`  ${rule.id.padEnd(38)} ${rule.severity.padEnd(5)}  ${rule.description}`);
    lines.push('');
    lines.push('drift (mcprely drift: the manifest against the live server)');
    for (const rule of DRIFT_RULES) lines.push(`  ${rule.id.padEnd(38)} ${rule.severity.padEnd(5)}  ${rule.description}`);
    lines.push('');
    lines.push('session (mcprely proxy and audit: what the server and the client did in a real session)');
    for (const rule of SESSION_RULES) lines.push(`  ${rule.id.padEnd(38)} ${rule.severity.padEnd(5)}  ${rule.description}`);
    lines.push('');
    lines.push(
      `${plural(ruleSet.rules.length, 'rule')}, ${plural(INPUT_RULES.length, 'input rule')}, ${plural(DRIFT_RULES.length, 'drift rule')} ` +
        `and ${plural(SESSION_RULES.length, 'session rule')}. ` +
        "mcprely rules <id> prints one rule's page.",
    );
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  }
  const inputRule = INPUT_RULES.find((candidate) => candidate.id === id);
  if (inputRule !== undefined) {
    process.stdout.write(renderInputRuleDoc(inputRule));
    return 0;
  }
  const driftRule = DRIFT_RULES.find((candidate) => candidate.id === id);
  if (driftRule !== undefined) {
    process.stdout.write(renderDescriptorPage(driftRule, 'drift'));
    return 0;
  }
  const sessionRule = SESSION_RULES.find((candidate) => candidate.id === id);
  if (sessionRule !== undefined) {
    process.stdout.write(renderDescriptorPage(sessionRule, 'session'));
    return 0;
  }
  const rule = ruleSet.byId.get(id);
  if (rule === undefined) {
    const suggestion = closestMatch(id, [
      ...INPUT_RULES.map((candidate) => candidate.id),
      ...DRIFT_RULE_IDS,
      ...SESSION_RULE_IDS,
      ...ruleSet.byId.keys(),
    ]);
    process.stderr.write(
      `error: no rule named ${id}${suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`}; mcprely rules lists them\n`,
    );
    return 2;
  }
  process.stdout.write(renderRuleDoc(rule, runRuleExamples(rule.definition, ruleSet)));
  return 0;
}
