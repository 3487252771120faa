import type { Finding } from '../findings/finding.js';
import { isInputFinding } from '../findings/input-rules.js';

/** What linting one file produced. */
export interface FileReport {
  readonly file: string;
  readonly findings: readonly Finding[];
  /** The file could not be read or is not a valid manifest; rules did not run on it. */
  readonly inputError: boolean;
}

export function fileReport(file: string, findings: readonly Finding[]): FileReport {
  return { file, findings, inputError: findings.some(isInputFinding) };
}
