import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/manifest/load.js';
import { protocolOf } from '../../src/policy/method-protocol.js';

const FLAWED_DIR = 'fixtures/examples/flawed';
const flawed = readdirSync(FLAWED_DIR).filter((file) => file.endsWith('.yaml'));

const CLEAN = readdirSync('fixtures/examples')
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => `fixtures/examples/${name}`);

describe('example manifests', () => {
  it('has at least six flawed examples, each naming the rule that catches it', () => {
    expect(flawed.length).toBeGreaterThanOrEqual(6);
    for (const file of flawed) {
      const text = readFileSync(join(FLAWED_DIR, file), 'utf8');
      expect(text).toMatch(/^# Caught by: [a-z-]+(, [a-z-]+)*$/m);
      // Each names the fixture that shows its defect, or says why the defect shows only in lint.
      expect(text).toMatch(/^# (Fails in verify: [\w-]+\/[a-z-]+|Lint-only: .{20,})$/m);
    }
  });

  it.each([...CLEAN, ...flawed.map((file) => join(FLAWED_DIR, file))])('%s is a valid manifest', (file) => {
    const result = loadManifest(file, readFileSync(file));
    expect(result.ok ? [] : result.problems.map((problem) => problem.message)).toEqual([]);
  });

  it('the clean examples together cover every kind of operation the variant suites vary', () => {
    const kinds = new Set<string>();
    for (const file of CLEAN) {
      const result = loadManifest(file, readFileSync(file));
      if (!result.ok) throw new Error(`${file} does not load`);
      const json = result.manifest.server.transports.includes('streamable-http') && result.manifest.server.http?.responseMode === 'json';
      for (const { spec } of result.operations) {
        const protocol = protocolOf(spec);
        const keyed = spec.sideEffect === 'mutation' && spec.idempotency?.keyArgument !== undefined;
        kinds.add(protocol === 'task' ? `task ${result.manifest.specVersion}` : protocol === 'call' && keyed ? 'keyed mutation' : protocol);
        if (json) kinds.add('JSON-response HTTP');
      }
    }
    expect([...kinds].sort()).toEqual(
      ['JSON-response HTTP', 'call', 'keyed mutation', 'listen', 'prompt', 'read', 'request', 'task 2025-11-25', 'task 2026-07-28'].sort(),
    );
  });

  it('the complete example covers a keyed mutation, a read, a task and a listen stream on both transports', () => {
    const result = loadManifest('billing.yaml', readFileSync('fixtures/examples/billing.yaml'));
    if (!result.ok) throw new Error('billing.yaml does not load');
    expect(result.manifest.server.transports).toEqual(['stdio', 'streamable-http']);
    const specs = result.operations.map((operation) => operation.spec);
    expect(specs.some((spec) => spec.sideEffect === 'mutation' && spec.idempotency?.keyArgument !== undefined)).toBe(true);
    expect(specs.some((spec) => spec.sideEffect === 'none' && spec.method === 'resources/read')).toBe(true);
    expect(specs.some((spec) => spec.task?.used === true)).toBe(true);
    expect(specs.some((spec) => spec.method === 'subscriptions/listen')).toBe(true);
  });
});
