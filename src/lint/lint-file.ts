import { loadManifest } from '../manifest/load.js';
import { fileReport, type FileReport } from './file-report.js';
import { problemFindings } from './problem-findings.js';

/** Lints the bytes of one manifest file. Pure: the caller reads the file. */
export function lintFile(file: string, bytes: Uint8Array): FileReport {
  const loaded = loadManifest(file, bytes);
  if (!loaded.ok) return fileReport(file, problemFindings(file, loaded.text, loaded.problems));
  return fileReport(file, []);
}
