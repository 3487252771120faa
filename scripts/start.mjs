// `npm start`: mcprely's main job on the bundled example — lint, review, verify and evidence — with the
// outputs written under evidence/ and a one-screen summary. Exits non-zero if any step does.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = process.argv[2] ?? 'fixtures/examples/billing.yaml';
const out = join('evidence', manifest.replace(/^.*\//, '').replace(/\.(ya?ml|json)$/, ''));
mkdirSync(join(root, out), { recursive: true });

function mcprely(...args) {
  const started = process.hrtime.bigint();
  // stderr goes straight to the terminal: verify and evidence show their progress there.
  const run = spawnSync(process.execPath, ['dist/mcprely.js', ...args], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { status: run.status, stdout: run.stdout, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

const lint = mcprely('lint', manifest);
const review = mcprely('review', manifest, '--output', join(out, 'review.md'));
const verify = mcprely('verify', manifest);
writeFileSync(join(root, out, 'verify.txt'), verify.stdout);
const evidence = mcprely('evidence', manifest, '--output', join(out, 'bundle'));

const verifySummary = /Summary: (.*)/.exec(verify.stdout)?.[1] ?? 'no summary';
const reviewOutcome = { 0: 'production-ready', 1: 'not production-ready (see the verdicts)' };
const lines = [
  '',
  `mcprely on ${manifest}`,
  `  lint      exit ${lint.status}  ${lint.stdout.trim().split('\n').at(-1)}`,
  `  review    exit ${review.status}  ${reviewOutcome[review.status] ?? 'failed'} → ${out}/review.md`,
  `  verify    exit ${verify.status}  ${verifySummary} → ${out}/verify.txt`,
  `  evidence  exit ${evidence.status}  ${evidence.stdout.trim().replace(/^Evidence for .* written to /, '')}`,
  `  time      ${((lint.ms + review.ms + verify.ms + evidence.ms) / 1000).toFixed(1)} s ` +
    `(lint ${lint.ms.toFixed(0)} ms, review ${review.ms.toFixed(0)} ms, verify ${verify.ms.toFixed(0)} ms, evidence ${evidence.ms.toFixed(0)} ms)`,
  '',
];
process.stdout.write(lines.join('\n'));
process.exitCode = [lint, review, verify, evidence].some((step) => step.status !== 0) ? 1 : 0;
