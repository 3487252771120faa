import { describe, expect, it } from 'vitest';
import { lintText, manifest } from '../helpers/lint-text.js';

const UNKEYED_RETRY = '  - name: charge\n    method: tools/call\n    sideEffect: mutation\n    retry: { automatic: on-timeout }';

describe('x-mcprely-ignore', () => {
  it('suppresses one rule for one operation, keeps the reason, and leaves other rules and operations alone', () => {
    const text = manifest({
      operations: [
        UNKEYED_RETRY,
        '    x-mcprely-ignore:',
        '      - { rule: retry-mutation-needs-key, reason: "the upstream dedupes by order id" }',
        UNKEYED_RETRY.replace('name: charge', 'name: refund'),
      ].join('\n'),
    });
    const findings = lintText(text, ['retry-mutation-needs-key', 'retry-reconcile-first']);
    const summary = findings.map((finding) => [finding.data['operation'], finding.ruleId, finding.suppression?.justification ?? null]);
    expect(summary).toEqual([
      ['charge', 'retry-mutation-needs-key', 'the upstream dedupes by order id'],
      ['charge', 'retry-reconcile-first', null],
      ['refund', 'retry-mutation-needs-key', null],
      ['refund', 'retry-reconcile-first', null],
    ]);
  });

  it('suppresses a server rule for the whole file from the top level', () => {
    const text = manifest({
      server: '{ name: s, transports: [streamable-http] }',
      operations: '  - { name: a, method: tools/call }',
      extra: 'x-mcprely-ignore:\n  - { rule: flow-sse-headers, reason: "headers are set by the gateway" }',
    });
    const findings = lintText(text, ['flow-sse-headers']);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.suppression).toEqual({ kind: 'in-source', justification: 'headers are set by the gateway' });
  });

  it('refuses a suppression without a reason, and one naming an unknown rule, at their places', () => {
    const noReason = lintText(manifest({ operations: `${UNKEYED_RETRY}\n    x-mcprely-ignore: [{ rule: retry-mutation-needs-key }]` }));
    expect(noReason.map((finding) => [finding.ruleId, finding.range?.start.line, finding.message])).toEqual([
      ['manifest-schema', 9, 'operations[0].x-mcprely-ignore[0] is missing the required field "reason"'],
    ]);
    const unknown = lintText(
      manifest({ operations: `${UNKEYED_RETRY}\n    x-mcprely-ignore: [{ rule: retry-mutation-need-key, reason: x }]` }),
    );
    const problem = unknown.find((finding) => finding.ruleId === 'manifest-schema')!;
    expect(problem.message).toBe(
      'x-mcprely-ignore names the unknown rule "retry-mutation-need-key" (did you mean "retry-mutation-needs-key"?)',
    );
    expect(problem.range?.start).toEqual({ line: 9, column: 32 });
  });

  it('reports a misspelt x-mcprely- key instead of ignoring it as an extension', () => {
    const findings = lintText(manifest({ operations: `${UNKEYED_RETRY}\n    x-mcprely-ignores: []` }));
    expect(findings[0]!.message).toBe('Unknown field "x-mcprely-ignores" in operations[0] (did you mean "x-mcprely-ignore"?)');
  });
});
