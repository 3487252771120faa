// A throwaway PostgreSQL server for the tests, the kill test and the benchmark: the machine's own binaries
// (Debian's postgresql package), a new cluster in a temporary folder, listening on 127.0.0.1 only at a free
// port, started as the postgres user when we are root (PostgreSQL refuses to run as root), stopped and
// removed by `stop()`. Nothing here depends on a server someone started by hand.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folder of initdb and pg_ctl: the newest /usr/lib/postgresql/<n>/bin, or whatever PATH finds. */
export function postgresBin() {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length > 0) return join(root, versions[0], 'bin');
  }
  try {
    const found = execFileSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).trim();
    if (found !== '') return found.replace(/\/initdb$/, '');
  } catch {}
  throw new Error('PostgreSQL is not installed (no initdb): apt-get install -y postgresql, or put its bin folder on PATH');
}

async function freePort() {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts a new cluster; resolves to { url, port, dir, stop } (the url carries the test password). */
export async function startPostgres() {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'mcprely-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const root = process.getuid?.() === 0;
  const run = (command) => {
    if (root) execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', command], { stdio: 'pipe' });
    else execFileSync('sh', ['-c', command], { stdio: 'pipe' });
  };
  const quote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;
  // Logins over TCP need the password (so a wrong one is refused, as on a real server); the socket is trusted.
  const password = 'mcprely-test';
  writeFileSync(join(dir, 'pwfile'), `${password}\n`, { mode: 0o644 });
  run(
    `${quote(join(bin, 'initdb'))} -D ${quote(data)} -U postgres --auth-local=trust --auth-host=scram-sha-256 ` +
      `--pwfile=${quote(join(dir, 'pwfile'))} --no-sync > ${quote(join(dir, 'initdb.log'))} 2>&1`,
  );
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=64MB`;
  run(`${quote(join(bin, 'pg_ctl'))} -D ${quote(data)} -o ${quote(options)} -l ${quote(join(dir, 'server.log'))} start -w -t 60`);
  let stopped = false;
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    dir,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(`${quote(join(bin, 'pg_ctl'))} -D ${quote(data)} stop -m fast -w -t 30`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
