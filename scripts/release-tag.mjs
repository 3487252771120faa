// Tags a release: a commit whose tree is the release tree (scripts/release-tree.mjs: the built dist/, action.yml,
// the rule pages, only the runtime dependencies named), its parent the commit being released, tagged vX.Y.Z with
// the major tag vX moved to it, so `uses: owner/mcprely@vX.Y.Z` (or `@vX`) runs without a build or a development
// install. Run by .github/workflows/release.yml as changesets' publish step once a version pull request is merged;
// it does nothing when the version's tag exists.
//
//   node scripts/release-tag.mjs [--no-push]     in the repository to tag (the current directory)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeReleaseTree } from './release-tree.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const push = !process.argv.includes('--no-push');

function git(args, options = {}) {
  const run = spawnSync('git', args, { encoding: 'utf8', ...options, env: { ...process.env, ...options.env } });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${(run.stderr || run.stdout).trim()}`);
  return run.stdout.trim();
}

const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const tag = `v${version}`;
const major = `v${version.split('.')[0]}`;
const known = push ? git(['ls-remote', '--tags', 'origin', `refs/tags/${tag}`]) : git(['tag', '--list', tag]);
if (known !== '') {
  process.stdout.write(`${tag} is already released\n`);
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), 'mcprely-release-tag-'));
try {
  const tree = writeReleaseTree(join(work, 'tree'));
  // The tree goes into the repository through an index of its own: the checkout and its index are left as they are.
  const env = { GIT_INDEX_FILE: join(work, 'index') };
  git(['--work-tree', tree, 'add', '--all', '--force', '.'], { env });
  const treeId = git(['write-tree'], { env });
  const head = git(['rev-parse', 'HEAD']);
  const commit = git([
    'commit-tree',
    treeId,
    '-p',
    head,
    '-m',
    `mcprely ${tag}: the release tree (dist/ built, runtime dependencies only)`,
  ]);
  git(['tag', '--annotate', tag, commit, '--message', `mcprely ${tag}`]);
  git(['tag', '--force', '--annotate', major, commit, '--message', `mcprely ${tag} (latest of ${major})`]);
  if (push) {
    git(['push', 'origin', `refs/tags/${tag}`]);
    git(['push', '--force', 'origin', `refs/tags/${major}`]);
  }
  process.stdout.write(`New tag: ${tag} (and ${major}) at ${commit}${push ? '' : ', not pushed'}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
