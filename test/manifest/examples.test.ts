import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/manifest/load.js';

const FLAWED_DIR = 'fixtures/examples/flawed';
const flawed = readdirSync(FLAWED_DIR).filter((file) => file.endsWith('.yaml'));

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

  it.each(['fixtures/examples/billing.yaml', 'fixtures/examples/billing-2025.yaml', ...flawed.map((file) => join(FLAWED_DIR, file))])(
    '%s is a valid manifest',
    (file) => {
      const result = loadManifest(file, readFileSync(file));
      expect(result.ok ? [] : result.problems.map((problem) => problem.message)).toEqual([]);
    },
  );

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
