import type { Severity } from '../findings/finding.js';
import type { RuleHead } from '../rules/rule-types.js';
import type { RuleSeverities } from '../rules/run-rules.js';
import type { Config, Preset, RuleSetting } from './config.js';
import { globMatcher } from './glob.js';

const RAISED: Record<Severity, Severity> = { error: 'error', warn: 'error', info: 'warn' };

function presetSetting(preset: Preset, rule: RuleHead): RuleSetting {
  if (preset === 'strict') return RAISED[rule.severity];
  return rule.recommended === false ? 'off' : rule.severity;
}

/** Resolves a configuration for one file into a compiled matcher per override, so many files cost little. */
export function severityResolver(config: Config, rules: readonly RuleHead[]): (relativeFile: string) => RuleSeverities {
  const base = new Map<string, RuleSetting>();
  for (const preset of config.extends ?? ['recommended']) for (const rule of rules) base.set(rule.id, presetSetting(preset, rule));
  for (const [id, setting] of Object.entries(config.rules ?? {})) base.set(id, setting);
  const overrides = (config.overrides ?? []).map((override) => ({
    matches: globMatcher(override.files as string[]),
    rules: override.rules,
  }));
  const cache = new Map<string, RuleSeverities>();
  return (relativeFile) => {
    const applied = overrides.flatMap((override, index) => (override.matches(relativeFile) ? [index] : []));
    const key = applied.join(',');
    let severities = cache.get(key);
    if (severities === undefined) {
      const settings = new Map(base);
      for (const index of applied) for (const [id, setting] of Object.entries(overrides[index]!.rules)) settings.set(id, setting);
      severities = new Map([...settings].filter((entry): entry is [string, Severity] => entry[1] !== 'off'));
      cache.set(key, severities);
    }
    return severities;
  };
}
