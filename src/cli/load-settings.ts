import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { CONFIG_FILE_NAMES, DEFAULT_CONFIG, type Config } from '../config/config.js';
import { loadConfig } from '../config/load-config.js';
import { severityResolver } from '../config/resolve-severities.js';
import { validateBaseline } from '../generated/validators.js';
import type { Baseline } from '../lint/baseline.js';
import { problemFindings } from '../lint/problem-findings.js';
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

function refuse(file: string, text: string, problems: readonly DocumentProblem[]): never {
  const findings = problemFindings(file, text, problems);
  throw new SettingsError(errorReport(findings));
}

/** Reads `path`; a problem is reported under the name the user gave (`shown`). */
function readOrRefuse(path: string, shown: string): Uint8Array {
  const read = readManifestFile(path);
  if (!read.ok) throw new SettingsError(errorReport([{ ...read.finding, file: shown }]));
  return read.bytes;
}

/** Finds and loads the configuration: --config, else mcprely.config.{yaml,yml,json} in the working directory, else the recommended preset. */
export function loadSeverities(configOption: string | false | undefined, ruleSet: RuleSet, cwd: string): (file: string) => RuleSeverities {
  let config: Config = DEFAULT_CONFIG;
  let baseDir = cwd;
  const file =
    configOption === false
      ? undefined
      : (configOption ?? CONFIG_FILE_NAMES.map((name) => join(cwd, name)).find((candidate) => existsSync(candidate)));
  if (file !== undefined) {
    const shown = relative(cwd, resolve(cwd, file)) || file;
    const loaded = loadConfig(shown, readOrRefuse(resolve(cwd, file), shown), ruleSet.ids);
    if (!loaded.ok) refuse(shown, loaded.text, loaded.problems);
    config = loaded.config;
    baseDir = dirname(resolve(cwd, file));
  }
  const resolver = severityResolver(
    config,
    ruleSet.rules.map((rule) => rule.definition),
  );
  return (manifestFile) => resolver(toSlashes(relative(baseDir, resolve(cwd, manifestFile))));
}

export function loadBaseline(file: string, cwd: string): Baseline {
  const bytes = readOrRefuse(resolve(cwd, file), file);
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
