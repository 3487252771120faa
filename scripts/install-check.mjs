// The install check: does what README.md's "Installing it in your project" says, in a project of its own, so the
// README cannot drift from what works on the npm of this machine.
// 1. Packs mcprely (`npm pack`, which runs the `prepare` script: the build) into a temporary folder.
// 2. Makes a fresh project there (`npm init -y`), copies the tarball in and puts the bundled example in `manifests/`.
// 3. Runs, one line at a time through the shell, every command of the README's fenced block between
//    `<!-- install-check:begin -->` and `<!-- install-check:end -->` — the README's own text, with `<version>`
//    replaced by the packed version — and requires each to exit 0.
// 4. Then, in that project: `npx mcprely lint` exits 0 on the complete example and 1 on a flawed one (naming its
//    rule), `review` calls the example production-ready, `verify` passes every fixture (it opens the SQLite
//    ledger: the proof that better-sqlite3's native module was built) and `evidence -o` writes index.html.
// 5. Then the README's Node API example (between `<!-- api-example:begin -->` and `<!-- api-example:end -->`), as a
//    file of that project: it type-checks against the installed package's declarations (`import { lint } from
//    'mcprely'`, with this repository's TypeScript) and, compiled, runs on the example.
// Needs the npm registry and nothing else on the network (better-sqlite3 compiles from source when its prebuilt
// binary cannot be fetched). Prints each step with its time; exits 0 only when every step passed, 1 naming the
// first step that failed. Removes its temporary folder either way. Run by CI (.ci/run).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export const BEGIN = '<!-- install-check:begin -->';
export const END = '<!-- install-check:end -->';
/** The README's placeholder for the packed version (`./mcprely-<version>.tgz`). */
export const VERSION_PLACEHOLDER = '<version>';

/**
 * The commands of the README's install block: the lines of the one fenced `sh` block between the markers,
 * without blank lines, comment lines and trailing `# …` comments. Throws when the markers or the block are missing.
 */
export function installCommands(readme) {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < 0 || end < start) throw new Error(`README.md has no install block between ${BEGIN} and ${END}`);
  if (readme.indexOf(BEGIN, start + 1) >= 0 || readme.indexOf(END, end + 1) >= 0)
    throw new Error('README.md has more than one install block');
  const fence = /^```sh\n([\s\S]*?)^```$/m.exec(readme.slice(start + BEGIN.length, end));
  if (!fence) throw new Error('the install block of README.md holds no ```sh fenced block');
  return fence[1]
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

export const API_BEGIN = '<!-- api-example:begin -->';
export const API_END = '<!-- api-example:end -->';

/** The README's Node API example: the one fenced `ts` block between the markers. Throws when it is missing. */
export function apiExample(readme) {
  const start = readme.indexOf(API_BEGIN);
  const end = readme.indexOf(API_END);
  if (start < 0 || end < start) throw new Error(`README.md has no Node API example between ${API_BEGIN} and ${API_END}`);
  const fence = /^```ts\n([\s\S]*?)^```$/m.exec(readme.slice(start + API_BEGIN.length, end));
  if (!fence) throw new Error('the Node API example of README.md holds no ```ts fenced block');
  return fence[1];
}

/** A command as it runs in the check: the placeholder replaced by the packed version. */
export function concrete(command, version) {
  return command.split(VERSION_PLACEHOLDER).join(version);
}

/** Child processes get the caller's environment without what `npm run` adds about this repository. */
function childEnv() {
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  for (const key of Object.keys(env)) if (/^npm_(package|lifecycle)_|^npm_config_local_prefix$|^INIT_CWD$/i.test(key)) delete env[key];
  return env;
}

class StepFailure extends Error {}

/** The signal that asked the check to stop: the running step fails with it and no further step starts. */
let stopping = null;

function main() {
  const started = Date.now();
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const commands = installCommands(readme);
  const work = mkdtempSync(join(tmpdir(), 'mcprely-install-check-'));
  let number = 0;

  /** Runs one step through the shell in `cwd`; prints it with its time; throws naming it unless it exits `expected`. */
  const step = (title, command, cwd, expected = 0) => {
    number++;
    if (stopping) throw new StepFailure(`stopped by ${stopping} before step ${number} (${title})`);
    const t0 = Date.now();
    const run = spawnSync('sh', ['-c', command], { cwd, env: childEnv(), encoding: 'utf8', timeout: 20 * 60_000, maxBuffer: 64 << 20 });
    const seconds = ((Date.now() - t0) / 1000).toFixed(1);
    const ok = run.status === expected;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${number}. ${title}: ${command}  (exit ${run.status ?? run.signal}, ${seconds} s)`);
    if (!ok) {
      const tail = `${run.stdout ?? ''}${run.stderr ?? ''}`.trimEnd().split('\n').slice(-30).join('\n');
      throw new StepFailure(
        `step ${number} (${title}) exited ${run.status ?? `on ${run.signal}`}, expected ${expected}: \`${command}\` in ${cwd}\n${tail}`,
      );
    }
    return run;
  };
  const expect = (condition, what) => {
    if (!condition) throw new StepFailure(`step ${number}: ${what}`);
  };

  try {
    // 1. The tarball, as a checkout packs it.
    const packDir = join(work, 'pack');
    mkdirSync(packDir);
    step('pack mcprely (prepare builds dist/)', `npm pack --pack-destination '${packDir}'`, root);
    const tarballs = readdirSync(packDir).filter((name) => /^mcprely-.+\.tgz$/.test(name));
    expect(tarballs.length === 1, `npm pack left ${tarballs.length} tarballs in ${packDir}: ${tarballs.join(', ')}`);
    const tarball = tarballs[0];
    const version = /^mcprely-(.+)\.tgz$/.exec(tarball)[1];

    // 2. A fresh project with the tarball beside its package.json and a manifest of its own.
    const project = join(work, 'project');
    mkdirSync(project);
    step('a fresh project', 'npm init -y', project);
    copyFileSync(join(packDir, tarball), join(project, tarball));
    mkdirSync(join(project, 'manifests'));
    copyFileSync(join(root, 'fixtures/examples/billing.yaml'), join(project, 'manifests/billing.yaml'));
    mkdirSync(join(project, 'flawed'));
    copyFileSync(join(root, 'fixtures/examples/flawed/no-max-timeout.yaml'), join(project, 'flawed/no-max-timeout.yaml'));

    // 3. The README's install block, line by line.
    for (const [index, command] of commands.entries()) {
      const line = concrete(command, version);
      expect(!/<[^>]*>/.test(line), `README install block line ${index + 1} still has a placeholder after substitution: ${line}`);
      step(`README install block, line ${index + 1}`, line, project);
    }
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/mcprely/package.json'), 'utf8'));
    expect(installed.version === version, `node_modules/mcprely is ${installed.version}, not the packed ${version}`);
    const allowScripts = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).allowScripts ?? {};
    expect(
      Object.entries(allowScripts).some(([key, value]) => /^better-sqlite3(@|$)/.test(key) && value === true),
      `the project's package.json does not approve better-sqlite3's install script: allowScripts is ${JSON.stringify(allowScripts)}`,
    );
    expect(
      existsSync(join(project, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')),
      "better-sqlite3's native module (node_modules/better-sqlite3/build/Release/better_sqlite3.node) was not built",
    );

    // 4. mcprely, installed, on the example.
    const lint = step('lint the complete example', 'npx mcprely lint manifests/billing.yaml', project);
    expect(/No findings in 1 file/.test(lint.stdout), `lint printed no "No findings in 1 file":\n${lint.stdout}`);
    const flawed = step('lint a flawed example (exit 1)', 'npx mcprely lint flawed/no-max-timeout.yaml', project, 1);
    expect(/deadline-max-required/.test(flawed.stdout), `lint of the flawed example did not name deadline-max-required:\n${flawed.stdout}`);
    const review = step('review the example', 'npx mcprely review manifests/billing.yaml', project);
    expect(
      /\*\*Verdict: ✅ production-ready\*\*/.test(review.stdout),
      `review gave no "Verdict: ✅ production-ready":\n${review.stdout.slice(0, 2000)}`,
    );
    const verify = step('verify the example (the SQLite ledger: better-sqlite3)', 'npx mcprely verify manifests/billing.yaml', project);
    expect(/^\s*PASS /m.test(verify.stdout) && !/^\s*FAIL /m.test(verify.stdout), `verify did not pass every fixture:\n${verify.stdout}`);
    const evidence = step('evidence of the example', 'npx mcprely evidence manifests/billing.yaml -o evidence', project);
    expect(/verdict: production-ready/.test(evidence.stdout), `evidence did not give the verdict production-ready:\n${evidence.stdout}`);
    expect(existsSync(join(project, 'evidence/index.html')), 'evidence wrote no evidence/index.html');

    // 5. The README's Node API example, type-checked against the installed declarations, compiled and run.
    writeFileSync(join(project, 'api-example.mts'), apiExample(readme));
    const tsc = `'${process.execPath}' '${join(root, 'node_modules/typescript/bin/tsc')}'`;
    const options = `--strict --module nodenext --target es2022 --typeRoots '${join(root, 'node_modules/@types')}' --types node`;
    step('type-check the README Node API example', `${tsc} ${options} --noEmit api-example.mts`, project);
    step('compile the README Node API example', `${tsc} ${options} --outDir api-example api-example.mts`, project);
    const api = step('run the README Node API example', 'node api-example/api-example.mjs', project);
    expect(
      /^0 errors; mcprely lint would exit 0$/m.test(api.stdout),
      `the Node API example did not lint the example clean:\n${api.stdout}`,
    );

    console.log(`install check: every step passed (${number} steps, ${((Date.now() - started) / 1000).toFixed(0)} s)`);
    return 0;
  } catch (error) {
    const message = error instanceof StepFailure ? error.message : `after step ${number}: ${error instanceof Error ? error.stack : error}`;
    console.error(`install check FAILED: ${message}`);
    return 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Ctrl-C or a CI timeout stops the running step (it fails) instead of this process, so the temporary folder goes.
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => {
      stopping = signal;
    });
  process.exitCode = main();
}
