import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { CODE_CACHE_FOLDER_PREFIX } from '../../src/cli/code-cache.js';

/** What a failed run left to read: its output and the FAIL lines of every transcript in the bundle. */
function whyFailed(run: { stdout: string; stderr: string }, dir: string): string {
  const transcripts = existsSync(join(dir, 'transcripts')) ? files(dir, 'transcripts') : [];
  const failing = transcripts.flatMap((file) =>
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .filter((line) => /FAIL/.test(line))
      .map((line) => `${file}: ${line}`),
  );
  return [run.stdout, run.stderr, ...failing].join('\n').slice(0, 4000);
}

function files(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? files(dir, join(prefix, entry.name)) : [join(prefix, entry.name)]))
    .sort();
}

describe('mcprely evidence', () => {
  const parent = mkdtempSync(join(tmpdir(), 'mcprely-evidence-'));
  const first = join(parent, 'first');
  const run = runCli(['evidence', 'fixtures/examples/billing.yaml', '-o', first]);
  // A passing and a failing run with a temporary folder of their own, read by several tests below (each run of
  // evidence plays every fixture: one run per outcome, not one per test).
  const temporary = mkdtempSync(join(tmpdir(), 'mcprely-evidence-tmp-'));
  const second = join(parent, 'second');
  const again = runCli(['evidence', 'fixtures/examples/billing.yaml', '-o', second], { env: { TMPDIR: temporary } });
  const flawed = join(parent, 'flawed');
  const failing = runCli(['evidence', 'fixtures/examples/flawed/process-local-ledger.yaml', '-o', flawed], { env: { TMPDIR: temporary } });
  // The second bundle as it was written, then the same run into the same folder, which replaces it.
  const secondBundle = again.status === 0 ? new Map(files(second).map((file) => [file, readFileSync(join(second, file))])) : new Map();
  const replaced = runCli(['evidence', 'fixtures/examples/billing.yaml', '-o', second]);

  it('writes the bundle with an index of every required artifact, each present or passing', () => {
    expect(run.status, whyFailed(run, first)).toBe(0);
    const index = JSON.parse(readFileSync(join(first, 'index.json'), 'utf8'));
    expect(index).toMatchObject({
      mcprelyEvidence: 1,
      server: 'billing',
      productionReady: true,
      fixtures: { total: 58, passed: 58, failed: 0 },
    });
    const names = index.artifacts.map((artifact: { name: string }) => artifact.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'cancellation race transcript, stdio',
        'cancellation race transcript, Streamable HTTP',
        'retry table for every mutation',
        'idempotency-key record',
        'key mismatch fixture',
        'concurrent same-key transcript',
        'reopen check',
        'mutation-alias check',
        'bounded-buffer overload result',
        'SSE headers and idle policy',
        'reconnect plan naming its refetch methods',
        'durable task cancellation trace',
      ]),
    );
    for (const artifact of index.artifacts) {
      expect(['pass', 'present'], artifact.name).toContain(artifact.status);
      for (const path of artifact.paths) expect(existsSync(join(first, path)), path).toBe(true);
    }
    expect(readFileSync(join(first, 'index.md'), 'utf8')).toMatch(/^# Evidence: billing/);
    const records = JSON.parse(readFileSync(join(first, 'idempotency-key-records.json'), 'utf8'));
    expect(records[0]).toMatchObject({
      operation: 'charge_account',
      executions: 1,
      reuseWithChangedArguments: 'rejected: idempotency key "checkout-7" was reused with different arguments',
      record: { key: 'checkout-7', execution: 1 },
    });
    expect(readFileSync(join(first, 'sse-headers-and-idle-policy.md'), 'utf8')).toMatch(/\| X-Accel-Buffering \| no \| no ✅ \|/);
  });

  it('leaves nothing in the temporary folder (its spooled records removed), whether the fixtures pass or fail', () => {
    expect(again.status, whyFailed(again, second)).toBe(0);
    expect(failing.status).toBe(1);
    // Node 22+ keeps its compile cache there too (node-compile-cache), and mcprely its code cache (meant to stay):
    // only the folders of a run count.
    const ofARun = (name: string) => name.startsWith('mcprely-') && !name.startsWith(CODE_CACHE_FOLDER_PREFIX);
    expect(readdirSync(temporary).filter(ofARun)).toEqual([]);
  });

  it('produces byte-identical files when run again', () => {
    expect(again.status, whyFailed(again, second)).toBe(0);
    expect([...secondBundle.keys()]).toEqual(files(first));
    for (const file of files(first)) expect(secondBundle.get(file), file).toEqual(readFileSync(join(first, file)));
    // Into the same folder, an earlier bundle is replaced.
    expect(files(second)).toEqual(files(first));
    expect(replaced.status, whyFailed(replaced, second)).toBe(0);
    for (const file of files(first)) expect(readFileSync(join(second, file)), file).toEqual(readFileSync(join(first, file)));
  });

  it('refuses to write into a folder that holds something else', () => {
    const foreign = mkdtempSync(join(tmpdir(), 'mcprely-foreign-'));
    writeFileSync(join(foreign, 'notes.txt'), 'mine');
    const refused = runCli(['evidence', 'fixtures/examples/billing.yaml', '-o', foreign]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/refusing to overwrite it/);
    expect(readFileSync(join(foreign, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('marks failing evidence for a flawed manifest, and exits 1', () => {
    expect(failing.status).toBe(1);
    const index = JSON.parse(readFileSync(join(flawed, 'index.json'), 'utf8'));
    expect(index.artifacts.find((artifact: { name: string }) => artifact.name === 'concurrent same-key transcript').status).toBe('fail');
    expect(index.productionReady).toBe(false);
  });
});
