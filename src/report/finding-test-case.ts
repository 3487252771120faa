import type { Finding } from '../findings/finding.js';
import { claimChangeText } from './claim-change.js';
import type { TestCase } from './test-suite.js';

/** One finding as a test case named by its rule and place, failing (or in error) with its message, fix and claim change. */
export function findingTestCase(finding: Finding, classname: string, status: 'fail' | 'error', type: string): TestCase {
  const place = finding.range === undefined ? finding.file : `${finding.file}:${finding.range.start.line}:${finding.range.start.column}`;
  const claim = claimChangeText(finding);
  return {
    classname,
    name: `${finding.ruleId} ${finding.path || '/'}`,
    status,
    type,
    message: finding.message,
    details: `${place}: ${finding.message}${finding.fix === undefined ? '' : `\nFix: ${finding.fix}`}${claim === '' ? '' : `\n${claim}`}`,
  };
}
