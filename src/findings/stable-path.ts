import type { Finding } from './finding.js';

const OPERATIONS = '/operations/';

/**
 * The finding's place with the operation named instead of counted: `/operations/3/timeouts/maxMs` of
 * operation charge → `/operations/charge/timeouts/maxMs`. It stays the same when operations are reordered,
 * so baselines and SARIF fingerprints key on it rather than on an index or a line.
 */
export function stablePath(finding: Finding): string {
  const operation = finding.data['operation'];
  const path = finding.path;
  if (typeof operation !== 'string' || !path.startsWith(OPERATIONS)) return path;
  let end = OPERATIONS.length;
  while (end < path.length && path.charCodeAt(end) >= 48 && path.charCodeAt(end) <= 57) end++;
  return end === OPERATIONS.length ? path : `${OPERATIONS}${operation}${path.slice(end)}`;
}
