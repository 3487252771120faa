import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// npm run test:live: scripts/ledger-kill-test.mjs for 4 s and its summary line (.ci/run also runs it for 20 s). The
// ledger's replay, races and locks in process and across processes: mutation-ledger.test.ts, npm test.
describe('the ledger under SIGKILL', () => {
  it('processes killed at random moments for 4 s, then every key replayed: exact', { timeout: 120_000 }, async () => {
    const run = spawn(process.execPath, ['scripts/ledger-kill-test.mjs', '--seconds', '4', '--keys', '2000'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    run.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const status = await new Promise<number | null>((resolve) => run.on('close', resolve));
    expect(output).toMatch(/kill test \(SQLite\): 4 s, 4 processes, [1-9]\d* SIGKILLs, 2000 keys; .*; exact$/m);
    expect(status, output).toBe(0);
  });
});
