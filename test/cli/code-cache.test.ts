import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { CODE_CACHE_FOLDER_PREFIX, codeCacheFolder, codeCacheName, trustedFolder } from '../../src/cli/code-cache.js';
import { REPO_ROOT, runCli } from '../helpers/run-cli.js';

const SCRIPT = join(REPO_ROOT, 'dist', 'cli-function.js');
const scratch = mkdtempSync(join(tmpdir(), 'mcprely-code-cache-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const uid = process.getuid?.();
const folderIn = (temporary: string) => join(temporary, `${CODE_CACHE_FOLDER_PREFIX}${uid}`);
const lintExample = (temporary: string, env: Record<string, string> = {}) =>
  runCli(['lint', '-f', 'json', 'fixtures/examples/flawed/no-max-timeout.yaml'], { env: { TMPDIR: temporary, ...env } });

/** Whether V8 takes the cache for the script as it is now (what `loadWithCodeCache` asks it). */
function accepted(cache: Buffer): boolean {
  const script = new Script(readFileSync(SCRIPT, 'latin1'), { filename: SCRIPT, cachedData: cache });
  return script.cachedDataRejected === false;
}

// Where there are no user ids (Windows) there is no code cache at all (the unit tests below show the decision).
describe.skipIf(uid === undefined)("the CLI's code cache (dist/cli-function.js through node:vm)", () => {
  it('is written by the first run of a command, holds what the run compiled, and is taken by V8 for this build', () => {
    const temporary = mkdtempSync(join(scratch, 'tmp-'));
    const first = lintExample(temporary);
    expect(first.status, first.stderr).toBe(1);
    const folder = folderIn(temporary);
    if (uid !== undefined) expect(statSync(folder).mode & 0o777).toBe(0o700);
    const files = readdirSync(folder);
    expect(files).toHaveLength(1);
    // Named by the digest of the script's text that the build gave dist/mcprely.js.
    const scriptId = createHash('sha256').update(readFileSync(SCRIPT)).digest('hex').slice(0, 16);
    expect(files[0]).toMatch(new RegExp(`^lint-${scriptId}-.+\\.cache$`));
    const cache = readFileSync(join(folder, files[0] as string));
    expect(accepted(cache)).toBe(true);
    // Taken after the run, not at compile time: it holds the lint's functions, so it is larger than a cache of the
    // script compiled but not run (what Node's compile cache keeps), taken in a fresh process (in this one, V8 may
    // hand back the script compiled above with the cache's functions).
    const compiledOnly = spawnSync(
      process.execPath,
      [
        '-e',
        `process.stdout.write(String(new (require('node:vm').Script)(require('node:fs').readFileSync(process.argv[1], 'latin1')).createCachedData().length))`,
        SCRIPT,
      ],
      { encoding: 'utf8' },
    );
    expect(compiledOnly.status, compiledOnly.stderr).toBe(0);
    expect(Number(compiledOnly.stdout)).toBeGreaterThan(10_000);
    expect(cache.length).toBeGreaterThan(Number(compiledOnly.stdout) * 2);
    // The second run reads it and says the same.
    const second = lintExample(temporary);
    expect(second.status).toBe(1);
    expect(second.stdout).toBe(first.stdout);
    expect(readdirSync(folder)).toEqual(files);
  });

  it('a damaged cache costs only time: the run says the same and the cache is written again', () => {
    const temporary = mkdtempSync(join(scratch, 'tmp-'));
    const first = lintExample(temporary);
    const folder = folderIn(temporary);
    const [file] = readdirSync(folder) as [string];
    writeFileSync(join(folder, file), Buffer.from('not a code cache, but the right name'));
    const again = lintExample(temporary);
    expect(again.status).toBe(1);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).toBe('');
    expect(accepted(readFileSync(join(folder, file)))).toBe(true);
  });

  it("one file per command: another build's cache of the same command is removed, another command's is kept", () => {
    const temporary = mkdtempSync(join(scratch, 'tmp-'));
    const folder = folderIn(temporary);
    mkdirSync(folder, { mode: 0o700 });
    writeFileSync(join(folder, 'lint-0000000000000000-old.cache'), 'stale');
    writeFileSync(join(folder, 'review-0000000000000000-old.cache'), 'kept');
    expect(lintExample(temporary).status).toBe(1);
    const files = readdirSync(folder).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^lint-[0-9a-f]{16}-/);
    expect(files[0]).not.toContain('0000000000000000');
    expect(files[1]).toBe('review-0000000000000000-old.cache');
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 turns it off: nothing is written', () => {
    const temporary = mkdtempSync(join(scratch, 'tmp-'));
    expect(lintExample(temporary, { NODE_DISABLE_COMPILE_CACHE: '1' }).status).toBe(1);
    expect(readdirSync(temporary).filter((name) => name.startsWith(CODE_CACHE_FOLDER_PREFIX))).toEqual([]);
  });

  // A cache that V8 takes is code that runs: planted with this build's name, it would run instead of mcprely.
  const plantIn = (folder: string, name: string) => {
    const planted = spawnSync(process.execPath, [join(REPO_ROOT, 'test/helpers/plant-code-cache.mjs'), SCRIPT, join(folder, name)]);
    expect(planted.status, String(planted.stderr)).toBe(0);
  };
  const nameOfLintCache = () => {
    const temporary = mkdtempSync(join(scratch, 'tmp-'));
    expect(lintExample(temporary).status).toBe(1);
    return readdirSync(folderIn(temporary))[0] as string;
  };

  it('never reads from or writes into a folder others can write, nor reads a file others can write (a code cache is code)', () => {
    const name = nameOfLintCache();
    // The control: in the user's own folder, the planted cache is taken (the attack is real).
    const own = mkdtempSync(join(scratch, 'tmp-'));
    mkdirSync(folderIn(own), { mode: 0o700 });
    plantIn(folderIn(own), name);
    expect(lintExample(own).stdout).toBe('PLANTED\n');
    // In a folder anyone can write, the same file is neither read nor replaced.
    const shared = mkdtempSync(join(scratch, 'tmp-'));
    mkdirSync(folderIn(shared));
    chmodSync(folderIn(shared), 0o777);
    plantIn(folderIn(shared), name);
    const planted = readFileSync(join(folderIn(shared), name));
    const run = lintExample(shared);
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).summary.errors).toBe(1);
    expect(readdirSync(folderIn(shared))).toEqual([name]);
    expect(readFileSync(join(folderIn(shared), name))).toEqual(planted);
    // In the user's own folder, a cache file others can write is not read either (it is written anew instead).
    const loose = mkdtempSync(join(scratch, 'tmp-'));
    mkdirSync(folderIn(loose), { mode: 0o700 });
    plantIn(folderIn(loose), name);
    chmodSync(join(folderIn(loose), name), 0o666);
    expect(JSON.parse(lintExample(loose).stdout).summary.errors).toBe(1);
  });
});

describe('code cache decisions', () => {
  const stats = { size: 2_272_142, mtimeMs: 1_796_414_393_040.7 };
  it('names a cache by command, build, V8 version and the script it was taken of', () => {
    const lint = codeCacheName(['node', 'mcprely', 'lint', 'a.yaml'], 'abc', '11.3.244.8-node.38', stats);
    expect(lint).toEqual({ prefix: 'lint-', file: 'lint-abc-11.3.244.8-node.38-2272142-1796414393040.cache' });
    expect(codeCacheName(['node', 'mcprely', '../../etc/passwd'], 'abc', '1', stats).file).toBe('other-abc-1-2272142-1796414393040.cache');
    expect(codeCacheName(['node', 'mcprely'], 'abc', '1', stats).prefix).toBe('other-');
    expect(codeCacheName(['node', 'mcprely', 'lint'], 'abc', '1', { ...stats, size: 1 }).file).not.toBe(
      codeCacheName(['node', 'mcprely', 'lint'], 'abc', '1', stats).file,
    );
    expect(codeCacheName(['node', 'mcprely', 'lint'], 'a/b', '1', stats).file).toBe('lint-a_b-1-2272142-1796414393040.cache');
  });

  it("lives in the user's own folder of the temporary folder, unless turned off", () => {
    expect(codeCacheFolder({}, '/tmp', 1000)).toBe(join('/tmp', 'mcprely-code-cache-1000'));
    // No user ids (Windows): a temporary folder may be shared, so no cache.
    expect(codeCacheFolder({}, 'C:/Temp', undefined)).toBeUndefined();
    expect(codeCacheFolder({ NODE_DISABLE_COMPILE_CACHE: '1' }, '/tmp', 1000)).toBeUndefined();
    expect(codeCacheFolder({ NODE_DISABLE_COMPILE_CACHE: '' }, '/tmp', 1000)).toBe(join('/tmp', 'mcprely-code-cache-1000'));
  });

  it('trusts only a real folder of this user that no one else can write', () => {
    const folder = (over: Partial<{ directory: boolean; link: boolean; uid: number; mode: number }>) => {
      const value = { directory: true, link: false, uid: 1000, mode: 0o40700, ...over };
      return { isDirectory: () => value.directory, isSymbolicLink: () => value.link, uid: value.uid, mode: value.mode };
    };
    expect(trustedFolder(folder({}), 1000)).toBe(true);
    expect(trustedFolder(folder({ mode: 0o40755 }), 1000)).toBe(true);
    expect(trustedFolder(folder({ mode: 0o40775 }), 1000)).toBe(false);
    expect(trustedFolder(folder({ mode: 0o40777 }), 1000)).toBe(false);
    expect(trustedFolder(folder({ uid: 0 }), 1000)).toBe(false);
    expect(trustedFolder(folder({ link: true }), 1000)).toBe(false);
    expect(trustedFolder(folder({ directory: false }), 1000)).toBe(false);
  });
});
