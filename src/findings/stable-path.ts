import type { Finding } from './finding.js';

/**
 * The finding's place with the operation named instead of counted: `/operations/3/timeouts/maxMs` of
 * operation charge → `/operations/charge/timeouts/maxMs`. It stays the same when operations are reordered,
 * so baselines and SARIF fingerprints key on it rather than on an index or a line.
 */
export function stablePath(finding: Finding): string {
  const operation = finding.data['operation'];
  return typeof operation === 'string' ? finding.path.replace(/^\/operations\/\d+/, `/operations/${operation}`) : finding.path;
}
