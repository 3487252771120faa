// The language server (mcprely lsp), measured in one run:
// - time from a change of the complete example to its diagnostics, against `mcprely lint` on the same text
//   (target: ≤ 1× — an editor never waits longer than a lint from the command line would take), and the same with
//   no debounce, against the in-server lint alone;
// - memory over 2 000 edits, each linted: the second thousand against the first (target: growth ≤ 5 %: no leak;
//   the heap settles during the first thousand).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';
import { median } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const rounds = Number(process.env.ROUNDS ?? 30);
const text = readFileSync(join(root, 'fixtures/examples/billing.yaml'), 'utf8');
const workspace = mkdtempSync(join(tmpdir(), 'mcprely-lsp-bench-'));
const file = join(workspace, 'billing.yaml');
writeFileSync(file, text);
const uri = pathToFileURL(file).href;

/** A server with the given debounce, opened on the example; `edit(n)` changes it and resolves at its diagnostics. */
async function server(debounceMs) {
  const child = spawn(process.execPath, [join(root, 'dist/mcprely.js'), 'lsp', '--stdio'], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiting = new Map();
  connection.onNotification('textDocument/publishDiagnostics', ({ version, diagnostics }) => {
    if (diagnostics.length > 0) throw new Error(`the complete example has ${diagnostics.length} diagnostics`);
    waiting.get(version)?.();
  });
  connection.listen();
  const folder = pathToFileURL(workspace).href;
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: folder,
    capabilities: {},
    initializationOptions: { debounceMs },
  });
  await connection.sendNotification('initialized', {});
  const published = (version) => new Promise((done) => waiting.set(version, done));
  const opened = published(1);
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  await opened;
  let version = 1;
  return {
    /** One edit (a comment line that changes with n) and the time until its diagnostics, in ms. */
    async edit(n) {
      version++;
      const done = published(version);
      const start = process.hrtime.bigint();
      await connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ text: `${text}# edit ${n}\n` }],
      });
      await done;
      return Number(process.hrtime.bigint() - start) / 1e6;
    },
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024,
    async stop() {
      await connection.sendRequest('shutdown');
      await connection.sendNotification('exit');
      connection.dispose();
    },
  };
}

const lintOnce = () => {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['dist/mcprely.js', 'lint', file], { cwd: root, stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`lint exited ${run.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
};

const debounced = await server(150);
const immediate = await server(0);
const samples = { lint: [], debounced: [], immediate: [] };
for (let round = 0; round < rounds; round++) {
  samples.lint.push(lintOnce());
  samples.debounced.push(await debounced.edit(round));
  samples.immediate.push(await immediate.edit(round));
}
await debounced.stop();
const lint = median(samples.lint);
const withPause = median(samples.debounced);
const alone = median(samples.immediate);
let ok = true;
const line = (name, figure, target, pass) => {
  if (!pass) ok = false;
  console.log(`  ${name.padEnd(62)} ${figure.padStart(9)}  (target ${target}) ${pass ? 'ok' : 'MISSED'}`);
};
console.log(`\nThe language server on the complete example, median of ${rounds} interleaved rounds`);
console.log(`  mcprely lint fixtures/examples/billing.yaml (a process)      ${lint.toFixed(1).padStart(9)} ms`);
console.log(`  change → diagnostics, 150 ms debounce (the default)           ${withPause.toFixed(1).padStart(9)} ms`);
console.log(`  change → diagnostics, no debounce (the lint in the server)    ${alone.toFixed(1).padStart(9)} ms`);
line('change → diagnostics (default) / lint', `${(withPause / lint).toFixed(2)}×`, '≤ 1×', withPause <= lint);
console.log(`  change → diagnostics (no debounce) / lint: ${(alone / lint).toFixed(3)}×`);

// Memory: 2 000 edits, each waited for (no debounce); resident memory after 100, 1 000 and 2 000.
const resident = {};
for (let n = 1; n <= 2000; n++) {
  await immediate.edit(rounds + n);
  if (n === 100 || n === 1000 || n === 2000) resident[n] = immediate.rssMb();
}
await immediate.stop();
console.log(`\nMemory of the server over 2 000 edits (each linted)`);
for (const n of [100, 1000, 2000])
  console.log(`  resident after ${String(n).padEnd(5)} edits                                   ${resident[n].toFixed(1).padStart(9)} MB`);
const growth = resident[2000] / resident[1000] - 1;
line('growth over the second thousand edits', `${(growth * 100).toFixed(1)} %`, '≤ 5 %', growth <= 0.05);
process.exitCode = ok ? 0 : 1;
