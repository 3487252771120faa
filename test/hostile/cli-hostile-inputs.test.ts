import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { chosenInputs, everyCommandOn, IN_NPM_TEST } from './cli-hostile-inputs.js';

const root = mkdtempSync(join(tmpdir(), 'mcprely-hostile-cli-'));

/** The chosen hostile inputs npm test leaves out (about 85 runs of the built CLI): npm run test:live. */
describe.concurrent('hostile inputs on the command line: exit 0, 1 or 2, no internal error, nothing raw, in bounds', () => {
  it.each(
    chosenInputs()
      .filter((input) => !IN_NPM_TEST.includes(input.name))
      .map((input) => [input.name, input] as const),
  )('%s', { timeout: 120_000 }, async (_name, input) => everyCommandOn(input, root));
});
