import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MOST_DEPLOYED_REVISION } from '../../src/spec/revisions.js';
import { REPO_ROOT } from '../helpers/run-cli.js';

// better-sqlite3 built against the headers of Node 24.19 or later aborts the process when the garbage collector
// frees one of its objects (node::ObjectWrap's destructor wants an entered context: nodejs/node#65446). The
// reference implementation keeps every such object until its thread ends (src/reference/kept-sqlite.ts): many
// ledgers and task services opened, used, closed and then collected, in the main thread and on a worker, must
// let the process end normally. On Node 20 this passes either way; scripts/node-versions.mjs runs it on Node 24.
const script = (reference: string) => `
import { Worker, isMainThread } from 'node:worker_threads';
import { MutationLedger, DurableTaskService, chargeAccount } from ${JSON.stringify(reference)};
let junk = [];
for (let i = 0; i < 2000; i++) {
  const ledger = MutationLedger.open(':memory:');
  ledger.execute(chargeAccount, { account: 'a', cents: 1 }, { idempotencyKey: 'k' + i });
  ledger.reconcile('k' + i);
  ledger.close();
  const tasks = DurableTaskService.open({ specVersion: ${JSON.stringify(MOST_DEPLOYED_REVISION)} });
  tasks.create('t');
  tasks.cancel('t');
  tasks.workerCheckpoint('t');
  tasks.close();
  // Garbage, so the collector runs as it does in a real run (an explicit gc() call did not show the abort).
  for (let j = 0; j < 200; j++) junk.push({ j, text: 'x' + j });
  if (junk.length > 100_000) junk = [];
}
await new Promise((resolve) => setImmediate(resolve));
if (isMainThread) await new Promise((resolve, reject) => new Worker(new URL(import.meta.url)).on('exit', resolve).on('error', reject));
`;

describe('better-sqlite3 objects and the garbage collector', () => {
  it('ledgers and task services opened and closed by the hundred, then collected: the process ends normally', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mcprely-sqlite-gc-')), 'churn.mjs');
    writeFileSync(file, script(pathToFileURL(join(REPO_ROOT, 'dist/reference.js')).href));
    const run = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).not.toMatch(/Assertion failed/);
    expect(run.status, run.stderr).toBe(0);
  });
});
