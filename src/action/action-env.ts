import { appendFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Severity } from '../findings/finding.js';

/** The action's inputs, as action.yml hands them to the entry point (MCPRELY_* environment variables). */
export interface ActionInputs {
  /** Files, folders and globs, one per line, each exactly as written (spaces and quotes are part of it). */
  readonly manifests: readonly string[];
  readonly ignorePatterns: readonly string[];
  /** The manifest set's name: one PR comment and one code scanning category per name. */
  readonly name: string;
  /** Findings at or above this severity fail the job; `none`: findings never do (unusable files still do). */
  readonly failSeverity: Severity | 'none';
  readonly config?: string;
  readonly sarif: boolean;
  readonly comment: boolean;
  readonly evidence: boolean;
}

/** A mistake in the workflow's `with:` block: reported as an error annotation, exit code 2. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

export function readInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const list = (name: string) => linesOf(env[name] ?? '');
  const flag = (name: string, fallback: boolean) => {
    const value = (env[name] ?? '').trim().toLowerCase();
    if (value === '') return fallback;
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw new InputError(`input ${inputName(name)} is "${env[name]}"; give true or false`);
  };
  const manifests = list('MCPRELY_MANIFESTS');
  if (manifests.length === 0) throw new InputError('input manifests is empty; name the manifest files, folders or globs to lint');
  const failSeverity = (env['MCPRELY_FAIL_SEVERITY'] ?? '').trim() || 'error';
  if (!['error', 'warn', 'info', 'none'].includes(failSeverity))
    throw new InputError(`input fail-severity is "${failSeverity}"; give error, warn, info or none`);
  const name = (env['MCPRELY_NAME'] ?? '').trim() || 'manifests';
  if (name.length > 100) throw new InputError('input name is over 100 characters');
  const config = (env['MCPRELY_CONFIG'] ?? '').trim();
  return {
    manifests,
    ignorePatterns: list('MCPRELY_IGNORE'),
    name,
    failSeverity: failSeverity as ActionInputs['failSeverity'],
    ...(config === '' ? {} : { config }),
    sarif: flag('MCPRELY_UPLOAD_SARIF', true),
    comment: flag('MCPRELY_COMMENT', true),
    evidence: flag('MCPRELY_EVIDENCE', true),
  };
}

/**
 * A list input as `actions/upload-artifact` reads `path`: one entry per line, the line's leading and trailing
 * whitespace trimmed, empty lines and `#` comments left out. Nothing else is done to it: no splitting at spaces,
 * no quotes removed (`my manifests/` is one folder; `"a.yaml"` names a file whose name has quotes).
 */
export function linesOf(value: string): string[] {
  return value
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * The entries of a list input that look like several paths on one line (as an older mcprely read them): the
 * entry does not exist, holds no glob character, and every word of it does. Each is a mistake to name, not a
 * path to look for.
 */
export function severalOnOneLine(entries: readonly string[], exists: (path: string) => boolean): string[] {
  return entries.filter((entry) => {
    if (!/\s/.test(entry) || /[*?[\]{}!]/.test(entry) || exists(entry)) return false;
    const words = entry.split(/\s+/);
    return words.length > 1 && words.every(exists);
  });
}

function inputName(variable: string): string {
  return variable
    .replace(/^MCPRELY_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
}

/**
 * The manifest set's name as a slug for file names, the comment marker and the SARIF category: lower-case
 * letters, digits and dashes, with a short hash when the name had to be changed to fit.
 */
export function slugOf(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  if (slug === name) return slug;
  let hash = 0x811c9dc5;
  for (const character of name) hash = Math.imul(hash ^ character.codePointAt(0)!, 0x01000193) >>> 0;
  return `${slug || 'set'}-${hash.toString(16).padStart(8, '0')}`;
}

/** Sets step outputs in $GITHUB_OUTPUT, each with a random delimiter so no value can end it early. */
export function setOutputs(env: NodeJS.ProcessEnv, outputs: Readonly<Record<string, string | number>>): void {
  const file = env['GITHUB_OUTPUT'];
  if (file === undefined || file === '') return;
  let text = '';
  for (const [name, value] of Object.entries(outputs)) {
    const delimiter = `mcprely_${randomBytes(12).toString('hex')}`;
    text += `${name}<<${delimiter}\n${String(value)}\n${delimiter}\n`;
  }
  appendFileSync(file, text);
}

/** GitHub keeps at most 1 MiB of a step's summary; ours stays well under, cut with a notice. */
export const MAX_SUMMARY_CHARACTERS = 512 * 1024;

export function appendSummary(env: NodeJS.ProcessEnv, markdown: string): void {
  const file = env['GITHUB_STEP_SUMMARY'];
  if (file === undefined || file === '') return;
  appendFileSync(file, markdown);
}
