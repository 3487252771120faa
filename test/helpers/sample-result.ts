import { readFileSync } from 'node:fs';
import { fileReport } from '../../src/lint/file-report.js';
import { lintFile } from '../../src/lint/lint-file.js';
import { lintResult, type LintResult } from '../../src/lint/lint-result.js';
import { bundledRules } from '../../src/rules/load-rules.js';
import type { Severity } from '../../src/findings/finding.js';

/** A result with every kind of finding a report must carry: errors, a warning, an info, a suppression, an unreadable file, a file-level error. */
export function sampleResult(): LintResult {
  const ruleSet = bundledRules();
  const severities = new Map<string, Severity>(ruleSet.rules.map((rule) => [rule.definition.id, rule.definition.severity]));
  const lint = (file: string, text: string) => lintFile(file, new TextEncoder().encode(text), { ruleSet, severities });
  const tricky = `mcprely: 1
specVersion: "2026-07-28"
server: { name: "a|b", transports: [stdio] }
operations:
  - name: "weird:name"
    method: tools/call
    sideEffect: mutation
    timeouts: { idleMs: 1000, maxMs: 3600000 }
    retry: { automatic: on-timeout }
    x-mcprely-ignore: [{ rule: retry-reconcile-first, reason: "reconciled by the <caller> & its \\"saga\\"" }]
`;
  return lintResult([
    lint('fixtures/examples/billing.yaml', readFileSync('fixtures/examples/billing.yaml', 'utf8')),
    lint('fixtures/examples/flawed/proxy-buffers-sse.yaml', readFileSync('fixtures/examples/flawed/proxy-buffers-sse.yaml', 'utf8')),
    lint('services/tricky name:a,100%.yaml', tricky),
    lint('broken.yaml', 'mcprely: 1\nserver: [a, b\n'),
    fileReport('missing.yaml', [
      {
        ruleId: 'manifest-file',
        severity: 'error',
        messageId: 'missing',
        data: {},
        message: 'No file exists at this path',
        file: 'missing.yaml',
        path: '',
        fix: 'check the path',
      },
    ]),
  ]);
}
