import { describe, expect, it } from 'vitest';
import { lintFile } from '../../src/lint/lint-file.js';
import { bundledRules } from '../../src/rules/load-rules.js';
import { hostileInputs } from './hostile-inputs.js';

const ruleSet = bundledRules();
const inputs = new Map(hostileInputs().map((input) => [input.name, input]));

/** The findings of the hostile input with this name. */
function lint(name: string) {
  const input = inputs.get(name);
  if (input === undefined) throw new Error(`no hostile input named ${name}`);
  return lintFile('hostile.yaml', input.bytes, { ruleSet, severities: new Map() }).findings;
}

describe('what the loader refuses, and where it says so', () => {
  it.each([
    ['buffer capacity 9007199254740993', /^The number 9007199254740993 is beyond 2\^53 \(9007199254740991\): it cannot be held exactly$/],
    ['backoff base 1e300', /^The number 1e300 is beyond 2\^53/],
    ['idle timeout 1e400', /^The number 1e400 is too large: it overflows to infinity$/],
    ['idle timeout 1e-400', /^The number 1e-400 is too small: it underflows to 0$/],
  ])('%s', (name, message) => {
    const [finding, ...rest] = lint(name);
    expect(rest).toEqual([]);
    expect(finding?.message).toMatch(message);
    expect(finding?.range?.start.column).toBeGreaterThanOrEqual(1);
    expect(finding?.range?.start.line).toBeGreaterThan(1);
  });

  it.each(['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'])(
    '%s is an unknown field wherever only the schema fields are allowed',
    (key) => {
      for (const where of [
        'top level',
        'server',
        'server.http',
        'defaults',
        'defaults.timeouts',
        'an operation',
        'retry',
        'idempotency',
        'task',
      ]) {
        const findings = lint(`${key} in ${where}`);
        expect(
          findings.map((finding) => finding.message),
          where,
        ).toEqual([expect.stringMatching(new RegExp(`^Unknown field "${key.replace(/_/g, '_')}" in `))]);
      }
    },
  );

  it('a long string aliased many times is refused by the text it would copy, at the alias', () => {
    const [finding] = lint('a 900 KB string aliased 200 times');
    expect(finding?.message).toMatch(/^YAML aliases here copy more than 4194304 characters of text \(an alias bomb\?\)$/);
  });

  it('a file that holds only --- is reported at line 1, column 1', () => {
    const [finding] = lint('only ---');
    expect(finding?.range?.start).toEqual({ line: 1, column: 1 });
  });

  it('a value or key quoted in a message is cut short', () => {
    const [finding] = lint('a 100000-character unknown key');
    expect(finding?.message.length).toBeLessThan(1000);
    expect(finding?.message).toMatch(/… \(99920 more characters\)/);
  });
});
