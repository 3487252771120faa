import { writeFileSync } from 'node:fs';
import { lintFile } from '../lint/lint-file.js';
import { fileReport } from '../lint/file-report.js';
import { exitCodeOf, lintResult } from '../lint/lint-result.js';
import { formatJson } from '../report/json.js';
import { formatStylish } from '../report/stylish.js';
import { readManifestFile } from './read-manifest-file.js';

export interface LintOptions {
  readonly format: 'stylish' | 'json';
  readonly output?: string;
}

/** Reads each path, lints it, writes the report; returns the exit code. One bad file never stops the others. */
export function runLint(paths: readonly string[], options: LintOptions, toolVersion: string): number {
  const reports = paths.map((path) => {
    const read = readManifestFile(path);
    return read.ok ? lintFile(path, read.bytes) : fileReport(path, [read.finding]);
  });
  const result = lintResult(reports);
  const text = options.format === 'json' ? formatJson(result, toolVersion) : formatStylish(result);
  if (options.output === undefined) process.stdout.write(text);
  else writeFileSync(options.output, text);
  return exitCodeOf(result);
}
