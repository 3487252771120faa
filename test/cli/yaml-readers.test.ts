import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flawed, generateCorpus } from '../../bench/generate-corpus.mjs';
import { runCli } from '../helpers/run-cli.js';

describe('the speed work changes no finding', () => {
  it('the flawed corpus and the examples: the same report in every format through the fast reader and through js-yaml alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-readers-'));
    const files = [...(generateCorpus(join(dir, 'flawed'), 3, 60, flawed) as string[]), 'fixtures/examples'];
    for (const format of ['json', 'sarif', 'stylish']) {
      const fast = runCli(['lint', '-f', format, ...files]);
      const slow = runCli(['lint', '-f', format, ...files], { env: { MCPRELY_YAML: 'js-yaml' } });
      expect(fast.status).toBe(1);
      expect(fast.stdout, format).toBe(slow.stdout);
    }
    const report = JSON.parse(runCli(['lint', '-f', 'json', ...files]).stdout) as { summary: { errors: number; warnings: number } };
    // The corpus is flawed on purpose: two findings for each of its operations (a missing maximum is a warning where
    // nothing resets the idle clock), and the examples' own.
    expect(report.summary.errors + report.summary.warnings).toBeGreaterThanOrEqual(360);
  });
});
