import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// scripts/node-versions.mjs runs this suite under another release (Node 24) and says which in MCPRELY_EXPECT_NODE:
// the test workers and every child they start through process.execPath (as runCli does) must be that release.
describe('the runtime under test', () => {
  it('runs the test workers and their CLI children on the same Node release, the one asked for', () => {
    const child = spawnSync(process.execPath, ['-p', 'process.version'], { encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    expect(child.stdout.trim()).toBe(process.version);
    const expected = process.env['MCPRELY_EXPECT_NODE'];
    if (expected !== undefined) {
      expect(process.version).toBe(expected);
      console.log(`test worker ${process.version}, CLI child ${child.stdout.trim()}`);
    }
  });
});
