// Makes the Python MCP SDK available for the SDK test servers (test/probe/servers/sdk/python_server.py):
// creates the virtual environment .python-sdk/ and installs `mcp` into it when it is missing. Idempotent.
//   node scripts/python-sdk.mjs     prints the venv's python path and exits 0;
//                                   or prints "unavailable: <reason>" and exits 3 (tests skip with that reason)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const venv = join(root, '.python-sdk');
const python = join(venv, process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python');

function unavailable(reason) {
  console.log(`unavailable: ${reason}`);
  process.exit(3);
}
function run(command, args, timeout) {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', timeout });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-3).join(' | ');
  return { ok: result.status === 0, why: result.error?.message ?? output ?? `exit ${result.status}` };
}
/** Whether the venv's python imports the SDK (the proof that the install is whole). */
const sdkImports = () => existsSync(python) && run(python, ['-c', 'import mcp.server.mcpserver, mcp_types'], 60_000).ok;

if (!sdkImports()) {
  if (!existsSync(python)) {
    const host = process.env.PYTHON ?? 'python3';
    const version = run(host, ['--version'], 10_000);
    if (!version.ok) unavailable(`${host} does not run (${version.why})`);
    const created = run(host, ['-m', 'venv', venv], 120_000);
    if (!created.ok) unavailable(`${host} -m venv failed (${created.why})`);
  }
  const installed = run(python, ['-m', 'pip', 'install', '--quiet', '--retries', '0', 'mcp'], 600_000);
  if (!installed.ok) unavailable(`pip install mcp failed (${installed.why})`);
  if (!sdkImports()) unavailable('mcp installed but does not import (mcp.server.mcpserver, mcp_types)');
}
console.log(python);
