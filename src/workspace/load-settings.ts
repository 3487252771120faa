import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { CONFIG_FILE_NAMES, DEFAULT_CONFIG, type Config } from '../config/config.js';
import { loadConfig } from '../config/load-config.js';
import { severityResolver } from '../config/resolve-severities.js';
import { validateBaseline } from '../generated/validate-baseline.js';
import type { Baseline } from '../lint/baseline.js';
import { CONFIG_PROBLEM_RULES, problemFindings, type ProblemRuleIds, RULE_FILE_PROBLEM_RULES } from '../lint/problem-findings.js';
import { bundledRules } from '../rules/load-rules.js';
import { displayText } from '../text/display-text.js';
import { parseDocumentBytes } from '../document/parse-document.js';
import type { DocumentProblem } from '../document/problem.js';
import type { RuleSet } from '../rules/load-rules.js';
import type { RuleSeverities } from '../rules/run-rules.js';
import { errorReport } from './error-report.js';
import { readManifestFile } from './read-manifest-file.js';

/** A configuration or baseline that cannot be used: reported like findings, then the run stops with exit 2. */
export class SettingsError extends Error {
  constructor(readonly report: string) {
    super(report);
  }
}

function refuse(file: string, text: string, problems: readonly DocumentProblem[], ruleIds?: ProblemRuleIds): never {
  const findings = problemFindings(file, text, problems, ruleIds);
  throw new SettingsError(errorReport(findings));
}

/** What to do about a file of each kind that cannot be read: never "create a manifest" for a configuration. */
const UNREADABLE: Readonly<Record<'config' | 'rule' | 'baseline', { ruleId: string; missing: string }>> = {
  config: { ruleId: 'config-file', missing: 'Check the path given with -c, or run without it to use the recommended preset' },
  rule: { ruleId: 'rule-file', missing: 'Check the rule folder (ruleFolders in the configuration)' },
  baseline: { ruleId: 'manifest-file', missing: 'Check the path, or write one with --write-baseline' },
};

/** Reads `path`; a problem is reported under the name the user gave (`shown`), with the rule and advice of its kind. */
function readOrRefuse(path: string, shown: string, kind: keyof typeof UNREADABLE): Uint8Array {
  const read = readManifestFile(path);
  if (!read.ok) {
    const advice = UNREADABLE[kind];
    const missing = read.finding.messageId === 'missing';
    throw new SettingsError(
      errorReport([{ ...read.finding, file: shown, ruleId: advice.ruleId, ...(missing ? { fix: advice.missing } : {}) }]),
    );
  }
  return read.bytes;
}

/** The rules a run uses (the bundled ones and the user's own) and each manifest's severities. */
export interface Settings {
  readonly ruleSet: RuleSet;
  readonly severitiesFor: (file: string) => RuleSeverities;
}

/**
 * Finds and loads the configuration: --config, else mcprely.config.{yaml,yml,json} in the working directory, else
 * the recommended preset; and the rule files of the folders it names (`ruleFolders`, relative to it).
 */
export async function loadSettings(configOption: string | false | undefined, cwd: string): Promise<Settings> {
  let config: Config = DEFAULT_CONFIG;
  let baseDir = cwd;
  let ruleSet = bundledRules();
  const file =
    configOption === false
      ? undefined
      : (configOption ?? CONFIG_FILE_NAMES.map((name) => join(cwd, name)).find((candidate) => existsSync(candidate)));
  if (file !== undefined) {
    const shown = relative(cwd, resolve(cwd, file)) || file;
    baseDir = dirname(resolve(cwd, file));
    // The user's rules are read and checked by code (and the rule schema's validator) only a configuration needs.
    const { withUserRules } = await import('../config/user-rules.js');
    const loaded = loadConfig(shown, readOrRefuse(resolve(cwd, file), shown, 'config'), (read) => {
      ruleSet = userRuleSet(read.ruleFolders ?? [], baseDir, cwd, withUserRules);
      return ruleSet.ids;
    });
    if (!loaded.ok) refuse(shown, loaded.text, loaded.problems, CONFIG_PROBLEM_RULES);
    config = loaded.config;
  }
  const resolver = severityResolver(
    config,
    ruleSet.rules.map((rule) => rule.definition),
  );
  return { ruleSet, severitiesFor: (manifestFile) => resolver(toSlashes(relative(baseDir, resolve(cwd, manifestFile)))) };
}

/** The bundled rules and those of the user's rule folders; a folder or rule file that cannot be used stops the run (exit 2). */
function userRuleSet(
  folders: readonly string[],
  baseDir: string,
  cwd: string,
  withUserRules: typeof import('../config/user-rules.js').withUserRules,
): RuleSet {
  const files: { file: string; bytes: Uint8Array }[] = [];
  for (const folder of folders) {
    const path = resolve(baseDir, folder);
    let names: string[];
    try {
      names = readdirSync(path)
        .filter((name) => /\.(ya?ml|json)$/i.test(name))
        .sort();
    } catch {
      throw new SettingsError(
        `error: the rule folder ${displayText(folder)} (ruleFolders in the configuration) cannot be read; check the path\n`,
      );
    }
    for (const name of names) {
      const shown = toSlashes(relative(cwd, join(path, name)));
      files.push({ file: shown, bytes: readOrRefuse(join(path, name), shown, 'rule') });
    }
  }
  if (files.length === 0) return bundledRules();
  const loaded = withUserRules(bundledRules(), files);
  if (!loaded.ok)
    throw new SettingsError(
      errorReport(loaded.files.flatMap((bad) => problemFindings(bad.file, bad.text, bad.problems, RULE_FILE_PROBLEM_RULES))),
    );
  return loaded.ruleSet;
}

export function loadBaseline(file: string, cwd: string): Baseline {
  const bytes = readOrRefuse(resolve(cwd, file), file, 'baseline');
  const parsed = parseDocumentBytes(file, bytes, 'json');
  if (!parsed.ok) refuse(file, parsed.text, parsed.problems);
  if (!validateBaseline(parsed.document.value)) {
    throw new SettingsError(
      `${file}: error: not an mcprely baseline (${validateBaseline.errors?.[0]?.instancePath || '/'} ${validateBaseline.errors?.[0]?.message ?? ''}); ` +
        `write one with mcprely lint --write-baseline ${file}\n`,
    );
  }
  return parsed.document.value as Baseline;
}

export function toSlashes(path: string): string {
  return path.replace(/\\/g, '/');
}
