// `npm start`'s job (lint, review, verify and evidence on the complete example) against `mcprely lint`
// alone on the same example. Reported as a ratio; there is no target.
import { fileURLToPath } from 'node:url';
import { race, timeCommand } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const rounds = Number(process.env.ROUNDS ?? 5);
const medians = race(
  {
    lint: () => timeCommand(process.execPath, ['dist/mcprely.js', 'lint', 'fixtures/examples/billing.yaml'], { cwd: root }),
    start: () => timeCommand(process.execPath, ['scripts/start.mjs'], { cwd: root }),
  },
  rounds,
);
console.log(`\nnpm start (without the build) against mcprely lint alone, complete example, median of ${rounds} interleaved runs`);
console.log(`  mcprely lint            ${medians.lint.toFixed(0).padStart(6)} ms`);
console.log(
  `  lint+review+verify+evidence ${medians.start.toFixed(0).padStart(6)} ms   ${(medians.start / medians.lint).toFixed(1)}× lint alone`,
);
