import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../src/document/line-index.js';
import { loadManifest, type LoadedManifest } from '../../src/manifest/load.js';
import { locate } from '../../src/document/source-map.js';

const BILLING_PATH = 'fixtures/examples/billing.yaml';
const billingText = readFileSync(BILLING_PATH, 'utf8');

function load(file: string, text: string) {
  return loadManifest(file, new TextEncoder().encode(text));
}

function loaded(file: string, text: string): LoadedManifest {
  const result = load(file, text);
  if (!result.ok) throw new Error(result.problems.map((problem) => problem.message).join('\n'));
  return result;
}

/** 1-based line and column of the first occurrence of `needle` after the line that contains `after`. */
function placeOf(text: string, needle: string, after = ''): { line: number; column: number } {
  const offset = text.indexOf(needle, text.indexOf(after));
  return new LineIndex(text).position(offset);
}

const MINIMAL = 'mcprely: 1\nspecVersion: "2026-07-28"\nserver: {name: x, transports: [stdio]}\n';

describe('positions', () => {
  const billing = loaded(BILLING_PATH, billingText);
  const lines = new LineIndex(billingText);

  it('points at a value, at its key, and at the parent key when the field is missing', () => {
    const value = locate(billing.source, ['operations', 0, 'idempotency', 'keyArgument']);
    expect(lines.position(value.start)).toEqual(placeOf(billingText, 'idempotencyKey', 'keyArgument'));
    expect(value.exact).toBe(true);
    const key = locate(billing.source, ['operations', 0, 'idempotency', 'keyArgument'], 'key');
    expect(lines.position(key.start)).toEqual(placeOf(billingText, 'keyArgument'));
    const missing = locate(billing.source, ['operations', 1, 'idempotency', 'keyArgument']);
    expect(missing.exact).toBe(false);
    expect(lines.position(missing.start)).toEqual(placeOf(billingText, 'name: get_balance'));
  });

  it('points inside flow mappings and at the quote of a quoted value', () => {
    const capMs = locate(billing.source, ['defaults', 'recovery', 'reconnect', 'backoff', 'capMs']);
    expect(lines.position(capMs.start)).toEqual(placeOf(billingText, '8000', 'sendLastEventId'));
    const spec = locate(billing.source, ['specVersion']);
    expect(lines.position(spec.start)).toEqual(placeOf(billingText, '"2026-07-28"'));
    expect(spec.end - spec.start).toBe('"2026-07-28"'.length);
  });

  it('keeps positions in JSON manifests, which load to the same data as the YAML', () => {
    const json = JSON.stringify(billing.manifest, null, 2);
    const fromJson = loaded('billing.json', json);
    expect(JSON.parse(JSON.stringify(fromJson.manifest))).toEqual(JSON.parse(json));
    const place = locate(fromJson.source, ['operations', 2, 'task', 'pollIntervalMs']);
    expect(new LineIndex(json).position(place.start)).toEqual(placeOf(json, '5000', '"pollIntervalMs"'));
  });
});

describe('defaults', () => {
  const billing = loaded(BILLING_PATH, billingText);
  const charge = billing.operations[0]!;

  it('merges defaults field by field, the operation winning', () => {
    expect(charge.spec.timeouts).toEqual({
      idleMs: 5000,
      maxMs: 60000,
      resetIdleOnProgress: true,
      resetMaxOnProgress: false,
      keepaliveCountsAsActivity: false,
      cancelOnTimeout: true,
    });
    expect(charge.spec.cancellation?.stopsWork).toBe('checkpoint');
    expect(charge.spec.cancellation?.httpSignal).toBe('close-stream');
    expect(billing.operations[1]!.spec.idempotency).toBeUndefined();
  });

  it('points an inherited field at the defaults and an overridden one at the operation', () => {
    const lines = new LineIndex(billingText);
    const inherited = locate(charge.source, ['timeouts', 'resetIdleOnProgress'], 'key');
    expect(lines.position(inherited.start)).toEqual(placeOf(billingText, 'resetIdleOnProgress', 'defaults:'));
    const own = locate(charge.source, ['timeouts', 'maxMs']);
    expect(lines.position(own.start)).toEqual(placeOf(billingText, '60000', '- name: charge_account'));
  });

  it('replaces lists instead of concatenating them, and never changes the parsed data', () => {
    const text =
      `${MINIMAL}defaults:\n  recovery: {refetch: [a, b]}\noperations:\n` +
      '  - {name: op, method: tools/call, recovery: {refetch: [c]}}\n  - {name: other, method: tools/call}\n';
    const manifest = loaded('m.yaml', text);
    expect(manifest.operations[0]!.spec.recovery?.refetch).toEqual(['c']);
    expect(manifest.operations[1]!.spec.recovery?.refetch).toEqual(['a', 'b']);
    expect(manifest.manifest.defaults?.recovery?.refetch).toEqual(['a', 'b']);
    expect(manifest.manifest.operations[0]!.recovery).toEqual({ refetch: ['c'] });
  });
});

describe('YAML details', () => {
  it('resolves scalars by the YAML 1.2 core schema', () => {
    const text =
      `${MINIMAL}operations: [{name: op, method: tools/call}]\n` +
      `x-values: [~, null, true, False, 12, -3, 0x1f, 0o17, 1.5, 1e3, .inf, "12", '7', yes, 2026-07-28, !!str 12]\n`;
    const values = (loaded('m.yaml', text).manifest as unknown as Record<string, unknown>)['x-values'];
    expect(values).toEqual([null, null, true, false, 12, -3, 31, 15, 1.5, 1000, Infinity, '12', '7', 'yes', '2026-07-28', '12']);
  });

  it('accepts aliases of a reasonable size and places their values at the anchor', () => {
    const text =
      `${MINIMAL}x-shared: &backoff {baseMs: 250, capMs: 8000, jitter: full}\noperations:\n` +
      '  - name: op\n    method: tools/call\n    retry: {automatic: never, backoff: *backoff}\n';
    const manifest = loaded('m.yaml', text);
    expect(manifest.operations[0]!.spec.retry?.backoff).toEqual({ baseMs: 250, capMs: 8000, jitter: 'full' });
    const cap = locate(manifest.source, ['operations', 0, 'retry', 'backoff', 'capMs']);
    expect(new LineIndex(text).position(cap.start)).toEqual(placeOf(text, '8000'));
  });

  it('refuses unknown tags, merge keys and undefined aliases with their place', () => {
    const cases: [string, string, number, number][] = [
      [`${MINIMAL}operations: !custom [x]\n`, 'unsupported-tag', 4, 13],
      [`${MINIMAL}defaults: {}\noperations:\n  - <<: {name: a}\n    method: tools/call\n`, 'merge-key', 6, 5],
      [`${MINIMAL}operations: *missing\n`, 'unknown-alias', 4, 13],
    ];
    for (const [text, messageId, line, column] of cases) {
      const result = load('m.yaml', text);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.problems[0]!.messageId).toBe(messageId);
      expect(new LineIndex(text).position(result.problems[0]!.start!)).toEqual({ line, column });
    }
  });

  it('keeps __proto__ and constructor as plain keys without touching any prototype', () => {
    const text = `${MINIMAL}operations: [{name: a, method: tools/call}]\nx-data: {__proto__: {polluted: 1}, constructor: {prototype: {polluted: 2}}}\n`;
    const manifest = loaded('m.yaml', text);
    const data = (manifest.manifest as unknown as Record<string, Record<string, unknown>>)['x-data']!;
    expect(Object.keys(data)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toEqual({ polluted: 1 });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((Object.prototype as unknown as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('schema errors', () => {
  it('reports every schema error at once, each at its place with a fix', () => {
    const text =
      'mcprely: 2\nspecVersion: "2026-07-29"\nserver: {name: "", transports: [stdio, stdio], replicas: 0}\n' +
      'operations:\n  - name: bad name\n    sideEffect: mutating\n';
    const result = load('m.yaml', text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const lines = new LineIndex(text);
    const seen = result.problems.map((problem) => [problem.messageId, lines.position(problem.start!).line, problem.message]);
    expect(seen).toEqual([
      ['not-allowed', 1, 'mcprely must be 1, not 2'],
      ['not-allowed', 2, 'specVersion is "2026-07-29", which is not one of 2025-11-25, 2026-07-28 (did you mean "2026-07-28"?)'],
      ['empty-text', 3, 'server.name must not be empty'],
      ['duplicate-item', 3, 'server.transports lists "stdio" twice (items 0 and 1)'],
      ['too-small', 3, 'server.replicas must be at least 1, not 0'],
      ['missing-field', 5, 'operations[0] is missing the required field "method"'],
      [
        'bad-format',
        5,
        'operations[0].name is "bad name", which is not a safe name: parts of letters, digits, "_", ".", ":" and "-", ' +
          'joined by single "/", none of them "." or ".."',
      ],
      [
        'not-allowed',
        6,
        'operations[0].sideEffect is "mutating", which is not one of none, idempotent, mutation (did you mean "mutation"?)',
      ],
    ]);
    expect(result.problems.find((problem) => problem.messageId === 'missing-field')?.fix).toMatch(
      /^add method: one of tools\/call, resources\/read/,
    );
  });

  it('suggests nothing for a key that resembles no field, and lists the allowed ones', () => {
    const result = load('m.yaml', `${MINIMAL}operations: [{name: a, method: tools/call, zzz: 1}]\n`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]!.message).toBe('Unknown field "zzz" in operations[0]');
    expect(result.problems[0]!.fix).toMatch(
      new RegExp(
        '^remove it; allowed here: name, method, description, uri, direction, transports, x-mcprely-ignore, probe, x-mcprely-unverified, ' +
          'sideEffect, annotations, timeouts',
      ),
    );
  });
});
