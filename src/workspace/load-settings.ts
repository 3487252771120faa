import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { relativeResolved } from './relative-path.js';
import { CONFIG_FILE_NAMES, DEFAULT_CONFIG, type Config } from '../config/config.js';
import { severityResolver } from '../config/resolve-severities.js';
import type { Baseline } from '../lint/baseline.js';
import { BUNDLED_RULE_HEADS } from '../rules/bundled-rule-heads.js';
import type { RuleDefinition, RuleHead } from '../rules/rule-types.js';
import { displayText } from '../text/display-text.js';
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

/**
 * The error that stops the run for the problems of a configuration or baseline file, reported under the rules
 * of its kind (the code that places problems as findings is loaded only then).
 */
async function refusal(
  file: string,
  text: string,
  problems: readonly DocumentProblem[],
  kind: 'config' | 'baseline',
): Promise<SettingsError> {
  const { CONFIG_PROBLEM_RULES, MANIFEST_PROBLEM_RULES, problemFindings } = await import('../lint/problem-findings.js');
  return new SettingsError(
    errorReport(problemFindings(file, text, problems, kind === 'config' ? CONFIG_PROBLEM_RULES : MANIFEST_PROBLEM_RULES)),
  );
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
  /** The rules in force, the bundled ones first: each one's id and severities (what a configuration resolves). */
  readonly rules: readonly RuleHead[];
  /** The definitions of the user's own rules (from the configuration's rule folders), for the lint cache's key. */
  readonly userDefinitions: readonly RuleDefinition[];
  /**
   * The rules compiled, loaded on first use: a `lint --cache` run whose files are all unchanged never asks, and so
   * never loads the rule engine. With rule folders they are compiled up front (a bad rule file stops the run).
   */
  readonly ruleSet: () => Promise<RuleSet>;
  readonly severitiesFor: (file: string) => RuleSeverities;
}

/** The bundled rules, compiled the first time they are asked for (once per process, by load-rules.ts). */
async function compiledBundledRules(): Promise<RuleSet> {
  return (await import('../rules/load-rules.js')).bundledRules();
}

/**
 * Finds and loads the configuration: --config, else mcprely.config.{yaml,yml,json} in the working directory, else
 * the recommended preset; and the rule files of the folders it names (`ruleFolders`, relative to it). The reader
 * and schema of configurations are loaded only when there is one.
 */
export async function loadSettings(configOption: string | false | undefined, cwd: string): Promise<Settings> {
  let config: Config = DEFAULT_CONFIG;
  let baseDir = cwd;
  let rules: readonly RuleHead[] = BUNDLED_RULE_HEADS;
  let userDefinitions: readonly RuleDefinition[] = [];
  let ruleSet = compiledBundledRules;
  const file =
    configOption === false
      ? undefined
      : (configOption ?? CONFIG_FILE_NAMES.map((name) => join(cwd, name)).find((candidate) => existsSync(candidate)));
  if (file !== undefined) {
    const shown = relative(cwd, resolve(cwd, file)) || file;
    baseDir = dirname(resolve(cwd, file));
    const { loadConfig } = await import('../config/load-config.js');
    const bytes = readOrRefuse(resolve(cwd, file), shown, 'config');
    const bundledIds = new Set(BUNDLED_RULE_HEADS.map((rule) => rule.id));
    let folders: readonly string[] = [];
    let loaded = loadConfig(shown, bytes, (read) => {
      folders = read.ruleFolders ?? [];
      return bundledIds;
    });
    if (folders.length > 0) {
      // Rule folders: their files are read and checked by the rule engine (and the rule schema's validator), loaded
      // only for such a configuration, which is then checked again against the ids they add.
      const engine = await ruleEngine();
      loaded = loadConfig(shown, bytes, (read) => {
        const withUser = userRuleSet(read.ruleFolders ?? [], baseDir, cwd, engine);
        rules = withUser.rules.map((rule) => rule.definition);
        userDefinitions = withUser.rules.map((rule) => rule.definition).filter((definition) => !bundledIds.has(definition.id));
        ruleSet = async () => withUser;
        return withUser.ids;
      });
    }
    if (!loaded.ok) throw await refusal(shown, loaded.text, loaded.problems, 'config');
    config = loaded.config;
  }
  const resolver = severityResolver(config, rules);
  return {
    rules,
    userDefinitions,
    ruleSet,
    severitiesFor: (manifestFile) => resolver(toSlashes(relativeResolved(baseDir, resolve(cwd, manifestFile)))),
  };
}

/** What reading the user's rule files takes: the bundled rules compiled, the rule files' reader, their problems as findings. */
type RuleEngine = Pick<typeof import('../config/user-rules.js'), 'withUserRules'> &
  Pick<typeof import('../rules/load-rules.js'), 'bundledRules'> &
  Pick<typeof import('../lint/problem-findings.js'), 'problemFindings' | 'RULE_FILE_PROBLEM_RULES'>;

async function ruleEngine(): Promise<RuleEngine> {
  const [userRules, loadRules, problems] = await Promise.all([
    import('../config/user-rules.js'),
    import('../rules/load-rules.js'),
    import('../lint/problem-findings.js'),
    import('../rules/functions/schema.js').then(({ loadSchemaCompiler }) => loadSchemaCompiler()),
  ]);
  return { ...userRules, ...loadRules, ...problems };
}

/** The bundled rules and those of the user's rule folders; a folder or rule file that cannot be used stops the run (exit 2). */
function userRuleSet(
  folders: readonly string[],
  baseDir: string,
  cwd: string,
  { bundledRules, withUserRules, problemFindings, RULE_FILE_PROBLEM_RULES }: RuleEngine,
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

/** Reads and checks a baseline file (the JSON reader and the baseline schema's validator are loaded for it). */
export async function loadBaseline(file: string, cwd: string): Promise<Baseline> {
  const bytes = readOrRefuse(resolve(cwd, file), file, 'baseline');
  const [{ parseDocumentBytes }, { validateBaseline }] = await Promise.all([
    import('../document/parse-document.js'),
    import('../generated/validate-baseline.js'),
  ]);
  const parsed = parseDocumentBytes(file, bytes, 'json');
  if (!parsed.ok) throw await refusal(file, parsed.text, parsed.problems, 'baseline');
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
