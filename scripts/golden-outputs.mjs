// Golden outputs: what mcprely prints for the bundled examples and for recorded sessions, kept in test/golden/outputs/
// so that a redesign can show it changed nothing users read (or exactly what, in the diff of a commit).
//   node scripts/golden-outputs.mjs          rewrites the golden files from the built CLI (dist/)
//   node scripts/golden-outputs.mjs --check  compares, prints a diff of each output that differs, exits 1 if any does
// Each golden file is one command: its exit code, standard output and standard error. Paths are the repository's
// relative ones (the commands run in the repository); nothing printed depends on time, except what is normalised below.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outputs = join(root, 'test/golden/outputs');
const sessions = 'test/golden/sessions';

const examples = readdirSync(join(root, 'fixtures/examples'))
  .filter((name) => /\.ya?ml$/.test(name))
  .sort()
  .map((name) => `fixtures/examples/${name}`);
const flawed = readdirSync(join(root, 'fixtures/examples/flawed'))
  .filter((name) => /\.ya?ml$/.test(name))
  .sort()
  .map((name) => `fixtures/examples/flawed/${name}`);
const traces = readdirSync(join(root, sessions))
  .filter((name) => name.endsWith('.jsonl'))
  .sort()
  .map((name) => `${sessions}/${name}`);

const LINT_FORMATS = ['stylish', 'json', 'sarif', 'github', 'junit', 'markdown', 'gitlab'];

/** Each golden: its name and the command's arguments. */
function goldens() {
  const list = [];
  const base = (file) => file.replace(/^.*\//, '').replace(/\.(ya?ml|jsonl)$/, '');
  for (const format of LINT_FORMATS) list.push([`lint-all.${format}`, ['lint', '--no-config', '-f', format, ...examples, ...flawed]]);
  for (const file of [...examples, ...flawed]) {
    const name = `${flawed.includes(file) ? 'flawed-' : ''}${base(file)}`;
    // The HTML page and the JSON transcripts of the complete examples are large and say what the others say: one of each.
    const one = file === examples[0] || flawed.includes(file);
    for (const format of ['markdown', 'json', ...(file === examples[0] ? ['html'] : [])])
      list.push([`review-${name}.${format}`, ['review', '--no-config', '-f', format, file]]);
    for (const format of ['text', 'junit', ...(one ? ['json'] : [])])
      list.push([`verify-${name}.${format}`, ['verify', '-f', format, file]]);
  }
  for (const trace of traces) {
    for (const format of ['stylish', 'json', 'sarif', 'junit'])
      list.push([`audit-${base(trace)}.${format}`, ['audit', '--grace', '300', '-f', format, trace]]);
    list.push([
      `audit-${base(trace)}-timeouts.stylish`,
      ['audit', '--grace', '300', '--idle-timeout', '300', '--fail-severity', 'warn', trace],
    ]);
  }
  list.push(['rules.txt', ['rules', '--no-config']]);
  for (const id of ['cancel-work-stops', 'manifest-schema', 'drift-progress', 'server-silent-after-cancel', 'client-recovers-lost-request'])
    list.push([`rules-${id}.md`, ['rules', id, '--no-config']]);
  return list;
}

/** What varies from run to run without meaning anything: durations the reports measure. */
function normalise(text) {
  return text
    .replaceAll(root, '<root>/')
    .replace(/"(time|durationMs|elapsedMs|tookMs)": ?[\d.]+/g, '"$1": <ms>')
    .replace(/time="[\d.]+"/g, 'time="<s>"')
    .replace(/\b\d+(\.\d+)? ?ms\b/g, '<ms>');
}

function run([name, args]) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['dist/mcprely.js', ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    child.on('close', (status) => {
      const stdout = normalise(Buffer.concat(out).toString('utf8'));
      const stderr = normalise(Buffer.concat(err).toString('utf8'));
      resolve([name, `$ mcprely ${args.join(' ')}\nexit ${status}\n--- stdout\n${stdout}--- stderr\n${stderr}`]);
    });
  });
}

/** Runs the commands a few at a time, in the list's order. */
async function runAll(list, parallel = 4) {
  const results = new Array(list.length);
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const index = next++;
      results[index] = await run(list[index]);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
}

const check = process.argv.includes('--check');
const results = await runAll(goldens());
if (!check) {
  rmSync(outputs, { recursive: true, force: true });
  mkdirSync(outputs, { recursive: true });
  for (const [name, text] of results) writeFileSync(join(outputs, name), text);
  console.log(`${results.length} golden outputs written to test/golden/outputs/`);
} else {
  let differ = 0;
  const expected = new Set(readdirSync(outputs));
  for (const [name, text] of results) {
    expected.delete(name);
    let kept;
    try {
      kept = readFileSync(join(outputs, name), 'utf8');
    } catch {
      kept = undefined;
    }
    if (kept === text) continue;
    differ++;
    console.log(`DIFFERS ${name}${kept === undefined ? ' (no golden file)' : ''}`);
    if (kept !== undefined) {
      const a = kept.split('\n');
      const b = text.split('\n');
      const at = a.findIndex((line, i) => line !== b[i]);
      console.log(`  first difference at line ${at + 1}:\n  - ${a[at] ?? '(end)'}\n  + ${b[at] ?? '(end)'}`);
    }
  }
  for (const name of expected) {
    differ++;
    console.log(`MISSING ${name}: a golden file no command produced`);
  }
  console.log(`${results.length} outputs compared, ${differ} differ`);
  process.exit(differ === 0 ? 0 : 1);
}
