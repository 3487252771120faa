// The complete example must lint clean; each flawed example must be reported by exactly the rules
// its header names ("# Caught by: rule-a, rule-b") and by nothing else.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const flawedDir = join(root, 'fixtures/examples/flawed');
let failures = 0;

function lint(file) {
  const run = spawnSync(process.execPath, ['dist/mcprely.js', 'lint', '--format', 'json', file], { cwd: root, encoding: 'utf8' });
  return { status: run.status, report: JSON.parse(run.stdout) };
}

const complete = lint('fixtures/examples/billing.yaml');
if (complete.status !== 0) {
  failures++;
  console.log(`FAIL fixtures/examples/billing.yaml: exit ${complete.status}, expected a clean run`);
}

for (const name of readdirSync(flawedDir).filter((file) => /\.(ya?ml|json)$/.test(file)).sort()) {
  const file = join('fixtures/examples/flawed', name);
  const expected = /^# Caught by: (.+)$/m.exec(readFileSync(join(root, file), 'utf8'))?.[1]?.split(/,\s*/).sort() ?? [];
  const { status, report } = lint(file);
  const found = [...new Set(report.files[0].findings.map((finding) => finding.ruleId))].sort();
  const ok = status === 1 && expected.length > 0 && JSON.stringify(found) === JSON.stringify(expected);
  if (!ok) failures++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${file}: exit ${status}, expected [${expected.join(', ')}], found [${found.join(', ')}]`);
}
process.exitCode = failures === 0 ? 0 : 1;
