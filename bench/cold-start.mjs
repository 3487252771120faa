// Cold start: `mcprely --version` and `mcprely lint` on the complete example, against `node -e 0`.
// Target (issue: foundation): each at most 3× node -e 0.
import { fileURLToPath } from 'node:url';
import { printRatios, race, timeCommand } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = 'dist/mcprely.js';
const node = process.execPath;
const rounds = Number(process.env.ROUNDS ?? 30);

const medians = race(
  {
    'node -e 0': () => timeCommand(node, ['-e', '0'], { cwd: root }),
    'mcprely --version': () => timeCommand(node, [cli, '--version'], { cwd: root }),
    'mcprely lint fixtures/examples/billing.yaml': () => timeCommand(node, [cli, 'lint', 'fixtures/examples/billing.yaml'], { cwd: root }),
  },
  rounds,
);
const ok = printRatios(`Cold start (median of ${rounds} interleaved runs)`, medians, 'node -e 0', {
  'mcprely --version': 3,
  'mcprely lint fixtures/examples/billing.yaml': 3,
});
process.exitCode = ok ? 0 : 1;
