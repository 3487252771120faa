import { closeSync, type Dirent, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { globMatcher, type Matcher } from '../config/glob.js';
import type { Finding } from '../findings/finding.js';
import { fileFinding } from './read-manifest-file.js';
import { toSlashes } from './load-settings.js';

/** What `lint` was asked to check, in command-line order: files, and a finding for each folder or glob that found none. */
export interface LintTargets {
  readonly targets: readonly ({ readonly file: string } | { readonly unmatched: Finding })[];
  /** Files named on the command line that an --ignore-pattern leaves out. */
  readonly ignored: readonly string[];
}

/** At most this many manifests from one run's folders and globs: a mistaken `/` stops here, not at the disk's end. */
export const MAX_EXPANDED_FILES = 10_000;
const MAX_DEPTH = 64;
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);
const MANIFEST_EXTENSIONS = /\.(ya?ml|json)$/i;
const GLOB_CHARACTERS = /[*?[\]{}]/;

/**
 * Expands what `lint` was given, as ESLint does: a file is taken as named (and reported if it cannot be read);
 * a folder is searched recursively for manifests (`.yaml`, `.yml` and `.json` files whose top level has an
 * `mcprely` key, so package.json and workflows are left alone); a glob (quoted, so the shell leaves it) takes
 * every file it matches relative to the working directory. node_modules and .git are never searched and
 * symbolic links to folders are not followed. `--ignore-pattern` globs (relative to the working directory)
 * leave out the files and folders they match. A folder or glob that finds nothing is an input error.
 * `knownManifest` (the lint cache's) names the files known to be manifests without reading them: unchanged since
 * their head was last read.
 */
export function expandLintPaths(
  paths: readonly string[],
  ignorePatterns: readonly string[],
  cwd: string,
  knownManifest?: (absolutePath: string) => boolean,
): LintTargets {
  const ignore = ignorePatterns.length === 0 ? undefined : ignoredBy(globMatcher(ignorePatterns.map(trimSlashes)));
  const seen = new Set<string>();
  const targets: ({ file: string } | { unmatched: Finding })[] = [];
  const ignored: string[] = [];
  const take = (file: string) => {
    const key = resolve(cwd, file);
    if (seen.has(key)) return;
    seen.add(key);
    targets.push({ file });
  };
  const budget = { left: MAX_EXPANDED_FILES };
  for (const path of paths) {
    const relativePath = (file: string) => toSlashes(relative(cwd, resolve(cwd, file)));
    const kind = kindOf(resolve(cwd, path), path);
    if (kind === 'file') {
      if (ignore?.(relativePath(path))) ignored.push(path);
      else take(path);
      continue;
    }
    const found: string[] = [];
    const wanted = (file: string) =>
      MANIFEST_EXTENSIONS.test(file) && (knownManifest?.(resolve(cwd, file)) === true || headLooksLikeManifest(file, syntaxOf(file)));
    if (kind === 'folder') walk(path, 0, { found, budget, ignore, relativePath, cwd, wanted });
    else {
      const matches = globMatcher([toSlashes(path).replace(/^\.\//, '')]);
      const root = staticPrefix(path);
      const absolute = isAbsolute(path);
      walk(root, 0, {
        found,
        budget,
        ignore,
        relativePath,
        cwd,
        wanted: (file) => matches(absolute ? toSlashes(resolve(cwd, file)) : relativePath(file)),
      });
    }
    if (budget.left < 0) {
      targets.push({
        unmatched: fileFinding(
          path,
          'too-many',
          `The folders and globs given hold more than ${MAX_EXPANDED_FILES} manifests`,
          'name a narrower folder or glob',
        ),
      });
      break;
    }
    if (found.length === 0)
      targets.push({
        unmatched:
          kind === 'folder'
            ? fileFinding(
                path,
                'no-manifest-in-folder',
                'No manifest (a .yaml, .yml or .json file with a top-level mcprely key) is in this folder',
                'check the path, or name the files',
              )
            : fileFinding(path, 'no-match', 'No file matches this glob', 'check the pattern; quote it so the shell leaves it to mcprely'),
      });
    for (const file of found.sort(byPath)) take(file);
  }
  return { targets, ignored };
}

interface Walk {
  readonly found: string[];
  readonly budget: { left: number };
  readonly ignore: ((path: string) => boolean) | undefined;
  readonly relativePath: (file: string) => string;
  readonly cwd: string;
  readonly wanted: (file: string) => boolean;
}

function walk(folder: string, depth: number, state: Walk): void {
  if (depth > MAX_DEPTH || state.budget.left < 0) return;
  let entries: Dirent[];
  try {
    entries = readdirSync(resolve(state.cwd, folder), { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => byPath(a.name, b.name));
  for (const entry of entries) {
    const path = folder === '.' ? entry.name : join(folder, entry.name);
    if (state.ignore?.(state.relativePath(path))) continue;
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) walk(path, depth + 1, state);
    } else if (entry.isFile() && state.wanted(path)) {
      state.found.push(path);
      if (--state.budget.left < 0) return;
    }
  }
}

/** A file in a searched folder is a manifest when its name ends in .yaml, .yml or .json and its top level has an mcprely key. */
function syntaxOf(file: string): 'json' | 'yaml' {
  return /\.json$/i.test(file) ? 'json' : 'yaml';
}

/** Whether a file's bytes (read for linting) have the head a folder search takes for a manifest's. */
export function bytesLookLikeManifest(file: string, bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, MANIFEST_HEAD_BYTES));
  return MANIFEST_EXTENSIONS.test(file) && textLooksLikeManifest(head.toString('utf8'), syntaxOf(file));
}

/** How much of a file decides whether it is a manifest. */
export const MANIFEST_HEAD_BYTES = 64 * 1024;

/** How much of a file is read first: a manifest says `mcprely:` near its top, so most files need no more. */
const FIRST_READ_BYTES = 4 * 1024;

/** Whether the text (a file's head) is a manifest's: a top-level `mcprely:` key. */
export function textLooksLikeManifest(head: string, syntax: 'json' | 'yaml'): boolean {
  if (syntax === 'json') return /^\s*\{\s*"mcprely"\s*:/.test(head) || /^ {0,2}"mcprely"\s*:/m.test(head);
  return /^(mcprely|"mcprely"|'mcprely')\s*:/m.test(head);
}

/**
 * The one buffer every head is read into (reading is synchronous, so one at a time): a new 64 KiB buffer per file
 * is memory outside the heap that V8 answers with a collection every few dozen files.
 */
let headBuffer: Buffer | undefined;

/**
 * `textLooksLikeManifest` of the file's first MANIFEST_HEAD_BYTES, reading its first 4 KiB before the rest: each
 * pattern needs nothing after its match, so a match in the first part is one in the whole head, and only a file
 * without one is read on to the head's end (then judged on the whole head, as if read at once).
 */
function headLooksLikeManifest(file: string, syntax: 'json' | 'yaml'): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    headBuffer ??= Buffer.allocUnsafe(MANIFEST_HEAD_BYTES);
    const buffer = headBuffer;
    let read = readSync(fd, buffer, 0, FIRST_READ_BYTES, 0);
    if (textLooksLikeManifest(buffer.toString('utf8', 0, read), syntax)) return true;
    if (read < FIRST_READ_BYTES) return false;
    // A read may return fewer bytes than asked before the end of the file: read on until the head is full or the file ends.
    for (let more = read; more > 0 && read < MANIFEST_HEAD_BYTES; read += more)
      more = readSync(fd, buffer, read, MANIFEST_HEAD_BYTES - read, read);
    return textLooksLikeManifest(buffer.toString('utf8', 0, read), syntax);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function kindOf(absolute: string, given: string): 'file' | 'folder' | 'glob' {
  try {
    if (statSync(absolute).isDirectory()) return 'folder';
    return 'file';
  } catch {
    return GLOB_CHARACTERS.test(given) ? 'glob' : 'file';
  }
}

/** The folders of a glob before its first wildcard: where the search starts. */
function staticPrefix(pattern: string): string {
  const segments = toSlashes(pattern).split('/');
  const fixed: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (GLOB_CHARACTERS.test(segment) || segment.includes('\\')) break;
    fixed.push(segment);
  }
  if (fixed.length === 0) return '.';
  if (fixed.length === 1 && fixed[0] === '') return '/';
  return fixed.join('/');
}

/** A path is ignored when the pattern matches it or any folder above it (so `legacy` leaves out everything in legacy/). */
function ignoredBy(matches: Matcher): (path: string) => boolean {
  return (path) => {
    const names = path.split('/');
    for (let end = names.length; end > 0; end--) if (matches(names.slice(0, end).join('/'))) return true;
    return false;
  };
}

function trimSlashes(pattern: string): string {
  return toSlashes(pattern).replace(/^\.\//, '').replace(/\/+$/, '');
}

function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
