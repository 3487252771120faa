import { lint } from '../api/lint.js';
import type { Finding } from '../findings/finding.js';

/**
 * Why a manifest cannot be reviewed or made into fixtures, as findings at their lines and columns: its input
 * problems as `mcprely lint` reports them. Empty when the manifest is usable (the API refused it for another reason).
 */
export async function manifestProblems(file: string, content: Uint8Array, folder: string): Promise<readonly Finding[]> {
  const outcome = await lint({ paths: [], text: { file, content }, config: false, cwd: folder });
  if (!outcome.ok) return [];
  const report = outcome.result.files[0];
  return report?.inputError === true ? report.findings.filter((finding) => finding.severity === 'error') : [];
}
