import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/run-cli.js';
import { SERVERS, stopServers } from './probe-harness.js';

// npm run test:live: drift's outcomes on the SDK-built server, each a whole probe (what init wrote agrees; nothing
// compared exits 3). npm test keeps drift's wiring per transport and the findings of each lie: drift.test.ts.
const SDK_V1 = `node ${SERVERS}/sdk-v1-server.mjs stdio`;

describe.concurrent('drift on the command line, against the SDK-built server', () => {
  afterAll(() => stopServers());

  it('init proposes the key argument the input schema carries, and drift agrees with what init wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-drift-init-'));
    const manifest = join(dir, 'v1.yaml');
    expect((await runCliAsync(['init', '--from-stdio', SDK_V1, '-o', manifest])).status).toBe(0);
    const written = readFileSync(manifest, 'utf8');
    expect(written).toMatch(/ {4}idempotency: \{ keyArgument: idempotencyKey \} # unverified: proposed from the input schema\n/);
    expect(written).toMatch(/x-mcprely-unverified: \[ sideEffect, idempotency\.keyArgument \]/);
    expect(written).toMatch(/progress: \{ emits: true \} # unverified: its description says it reports progress/);
    const run = await runCliAsync(['drift', manifest, '--stdio', SDK_V1, '-f', 'json']);
    expect(run.status, run.stdout + run.stderr).toBe(0);
  }, 90_000);

  it('nothing compared is not a pass: a manifest whose claims no request exercised exits 3, naming why each was not seen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-drift-nothing-'));
    const manifest = join(dir, 'quick.yaml');
    // The tool answers at once: nothing can be cancelled, timed out or measured.
    writeFileSync(
      manifest,
      readFileSync(`${SERVERS}/well-behaved.yaml`, 'utf8')
        .replace(
          'progress: { emits: true, minIntervalMs: 100 }',
          'cancellation: { stopsWork: immediately, suppressResponseAfterCancel: true }',
        )
        .replace('arguments: { steps: 6, stepMs: 200 }', 'arguments: { steps: 0, stepMs: 1 }'),
    );
    const run = await runCliAsync(['drift', manifest, '--stdio', SDK_V1, '--grace', '200']);
    expect(run.status, run.stdout + run.stderr).toBe(3);
    expect(run.stderr).toMatch(/^inconclusive: no claim of the manifest was seen on a request in flight/m);
    expect(run.stdout).toMatch(
      /INCONCLUSIVE {2}slow_job: cancellation\.stopsWork: immediately — slow_job answered \d+ ms after the request, before a cancellation could be sent/,
    );
    expect(run.stdout).toMatch(
      /INCONCLUSIVE {2}charge: idempotency\.keyArgument: idempotencyKey — not run: calling a mutation needs --allow-mutations/,
    );
  }, 60_000);
});
