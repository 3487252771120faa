// The complete examples (one per revision) must lint clean, pass every fixture and be reviewed production-ready. Each flawed
// example must be reported by exactly the rules its header names ("# Caught by: rule-a, rule-b") and by
// nothing else; it must fail `verify` with the fixture its header names ("# Fails in verify: operation/kind"),
// or its header must say why the defect shows only in lint ("# Lint-only: reason"); and `review` must refuse it.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const flawedDir = join(root, 'fixtures/examples/flawed');
let failures = 0;

function mcprely(...args) {
  return spawnSync(process.execPath, ['dist/mcprely.js', ...args], { cwd: root, encoding: 'utf8' });
}

function lint(file) {
  const run = mcprely('lint', '--format', 'json', file);
  return { status: run.status, report: JSON.parse(run.stdout) };
}

function report(ok, line) {
  if (!ok) failures++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${line}`);
}

for (const name of readdirSync(join(root, 'fixtures/examples'))
  .filter((file) => /\.(ya?ml|json)$/.test(file))
  .sort()) {
  const complete = join('fixtures/examples', name);
  report(lint(complete).status === 0, `${complete}: lints clean`);
  report(mcprely('verify', complete).status === 0, `${complete}: every fixture passes`);
  report(mcprely('review', complete).status === 0, `${complete}: reviewed production-ready`);
}

for (const name of readdirSync(flawedDir)
  .filter((file) => /\.(ya?ml|json)$/.test(file))
  .sort()) {
  const file = join('fixtures/examples/flawed', name);
  const header = readFileSync(join(root, file), 'utf8');
  const expected = /^# Caught by: (.+)$/m.exec(header)?.[1]?.split(/,\s*/).sort() ?? [];
  const { status, report: lintReport } = lint(file);
  const found = [...new Set(lintReport.files[0].findings.map((finding) => finding.ruleId))].sort();
  report(
    status === 1 && expected.length > 0 && JSON.stringify(found) === JSON.stringify(expected),
    `${file}: lint exit ${status}, expected [${expected.join(', ')}], found [${found.join(', ')}]`,
  );
  const fixture = /^# Fails in verify: (\S+)$/m.exec(header)?.[1];
  const lintOnly = /^# Lint-only: (.+)$/m.exec(header)?.[1];
  if (fixture !== undefined) {
    const verify = mcprely('verify', file);
    const failed = new RegExp(`^  FAIL  ${fixture.replace(/[/]/g, '\\/')}  `, 'm').test(verify.stdout);
    report(verify.status === 1 && failed, `${file}: verify exit ${verify.status}, ${fixture} ${failed ? 'fails' : 'does not fail'}`);
  } else
    report(
      lintOnly !== undefined,
      `${file}: ${lintOnly === undefined ? 'names neither the fixture that shows its defect nor why it is lint-only' : `lint-only: ${lintOnly}`}`,
    );
  const review = mcprely('review', file);
  report(review.status === 1, `${file}: review exit ${review.status} (refused)`);
}
process.exitCode = failures === 0 ? 0 : 1;
