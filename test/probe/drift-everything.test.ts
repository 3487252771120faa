// drift against @modelcontextprotocol/server-everything with the manifest init writes for it: a real server's long tool
// probed twice (about 30 s), so it runs in npm run test:live; drift's wiring over both transports stays in drift.test.ts.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/findings/finding.js';
import { runCliAsync } from '../helpers/run-cli.js';
import { EVERYTHING } from './probe-harness.js';

describe('drift against server-everything', () => {
  it('server-everything and the manifest init writes: the tools agree; its long tool after a cancellation is no claim of that manifest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-drift-everything-'));
    const manifest = join(dir, 'everything.yaml');
    const init = await runCliAsync(['init', '--from-stdio', `node ${EVERYTHING} stdio`, '-o', manifest]);
    expect(init.status, init.stderr).toBe(0);
    const written = readFileSync(manifest, 'utf8');
    expect(written).toContain('task: { used: true } # as advertised: execution.taskSupport is required');
    const run = await runCliAsync([
      'drift',
      manifest,
      '--stdio',
      `node ${EVERYTHING} stdio`,
      '-f',
      'json',
      '--arguments',
      '{"duration":1.2,"steps":4}',
    ]);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { files: { findings: Finding[] }[] }).files[0]!.findings).toEqual([]);
    // Told what it does (stops at once, no response after a cancellation), the same manifest is refused by the wire.
    const claimed = written.replace(
      /( {2}- name: trigger-long-running-operation\n(?: {4}.*\n)*?)( {4}x-mcprely-unverified)/,
      '$1    cancellation: { stopsWork: immediately, suppressResponseAfterCancel: true }\n    probe: { arguments: { duration: 3, steps: 3 } }\n$2',
    );
    expect(claimed).not.toBe(written);
    writeFileSync(manifest, claimed);
    const refused = await runCliAsync(['drift', manifest, '--stdio', `node ${EVERYTHING} stdio`]);
    expect(refused.status, refused.stdout + refused.stderr).toBe(1);
    // Only the claim the wire contradicted: progress after the cancellation says the work went on; the SDK suppressed
    // the response, so suppressResponseAfterCancel held and is not named.
    expect(refused.stdout).toMatch(
      /^ +\d+:\d+ {2}error {2}trigger-long-running-operation: the manifest says stopsWork: immediately, but on the wire .* {2}drift-cancellation$/m,
    );
    expect(refused.stdout).not.toMatch(/suppressResponseAfterCancel: true.* {2}drift-cancellation$/m);
    expect(refused.stdout).toMatch(/SEEN {2}trigger-long-running-operation: cancellation\.suppressResponseAfterCancel: true/);
  }, 150_000);
});
