import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { canonicalJson } from '../json/canonical-json.js';
import type { FileReport } from '../lint/file-report.js';
import { BUNDLED_RULES_DIGEST } from '../rules/bundled-rule-heads.js';
import type { RuleDefinition, RuleHead } from '../rules/rule-types.js';
import type { RuleSeverities } from '../rules/run-rules.js';
import { displayText } from '../text/display-text.js';
import { hexDigest } from '../text/sha.js';
import { sha1Hex } from '../text/sha1.js';

declare const MCPRELY_BUILD_ID: string | undefined;

/** What a file's report depends on besides its bytes: the rules on for it, and whether fixes carry their text change. */
export interface CacheSettings {
  readonly severities: RuleSeverities;
  readonly fixReplacements: boolean;
}

const CACHE_FILE_NAME = 'lint-cache.json';
const FORMAT = 'mcprely-lint-cache';
const FORMAT_VERSION = 1;

interface CacheEntry {
  /** SHA-1 of the file's bytes. */
  readonly content: string;
  /** The file's size and modification time when its content was hashed: unchanged, the file is not read again. */
  readonly size?: number;
  readonly mtimeMs?: number;
  /** When the content was last hashed (ms since the epoch). */
  readonly checkedAt?: number;
  /** SHA-1 of the file's effective configuration: how the severities of its rules differ from the rules' own. */
  readonly settings: string;
  readonly report: FileReport;
  /** Whether the file's head says it is a manifest (a top-level mcprely key): a folder search takes it without reading it. */
  readonly manifestHead?: boolean;
}

interface CacheFile {
  readonly format: typeof FORMAT;
  readonly version: typeof FORMAT_VERSION;
  /** mcprely's version and build, and the rule set (bundled and the user's own rules): any change empties the cache. */
  readonly tool: string;
  readonly rules: string;
  readonly files: Record<string, CacheEntry>;
}

/**
 * The lint cache (`lint --cache`): each file's report, keyed by its path and kept while its content hash, its
 * effective configuration, the rule set and mcprely's version and build are unchanged. A cache file that is
 * not valid JSON, not one mcprely wrote, or of another shape is ignored with a warning and rewritten, never
 * trusted and never fatal; one written by another version or for other rules is simply replaced.
 */
export class LintCache {
  readonly #path: string;
  readonly #tool: string;
  readonly #rules: string;
  readonly #files: Record<string, CacheEntry>;
  /** A file's hash, worked out once for the bytes read (a miss looks it up, then stores it). */
  readonly #hashes = new WeakMap<Uint8Array, string>();
  readonly #settings = new WeakMap<RuleSeverities, [string | undefined, string | undefined]>();
  /** Files stated by `knownManifest` this run, for `byMetadata` (one stat per file). */
  readonly #stats = new Map<string, ReturnType<typeof statSync> | undefined>();
  readonly warnings: string[] = [];
  /** Whether any entry was written (or the file must be replaced): an unchanged cache is not written again. */
  #changed = false;
  hits = 0;
  misses = 0;

  /** Each rule's own severity: a file's severities are keyed by how they differ from these. */
  readonly #defaults: ReadonlyMap<string, string>;

  private constructor(path: string, tool: string, rules: string, files: Record<string, CacheEntry>, defaults: ReadonlyMap<string, string>) {
    this.#defaults = defaults;
    this.#path = path;
    this.#tool = tool;
    this.#rules = rules;
    this.#files = files;
  }

  /**
   * Opens the cache at `location` (a file, or a folder to hold `lint-cache.json`), relative to `cwd`, for the rules
   * in force: their heads (ids and severities) and the definitions of the user's own (opening it never needs the
   * rule engine, nor the bundled definitions: their digest stands for them).
   */
  static open(
    location: string,
    cwd: string,
    toolVersion: string,
    { rules: heads, userDefinitions }: { readonly rules: readonly RuleHead[]; readonly userDefinitions: readonly RuleDefinition[] },
  ): LintCache {
    const path = cacheFilePath(location, cwd);
    const tool = `${toolVersion}+${typeof MCPRELY_BUILD_ID === 'string' ? MCPRELY_BUILD_ID : 'source'}`;
    const rules = sha1Hex(`${BUNDLED_RULES_DIGEST}\n${canonicalJson(userDefinitions)}`);
    const defaults = new Map(heads.map((head) => [head.id, head.severity]));
    const cache = new LintCache(path, tool, rules, {}, defaults);
    cache.#changed = true;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        cache.warnings.push(
          `warning: the lint cache ${displayText(location)} cannot be read (${(error as Error).message}); linting every file`,
        );
      return cache;
    }
    const read = parseCache(text);
    if (read === undefined) {
      cache.warnings.push(
        `warning: ${displayText(location)} is not a lint cache mcprely wrote (corrupt or foreign); it is ignored and will be rewritten`,
      );
      return cache;
    }
    if (read.tool !== tool || read.rules !== rules) return cache;
    return new LintCache(path, tool, rules, read.files, defaults);
  }

  /**
   * The cached report of a file whose size and modification time are those recorded with it (and whose
   * configuration is unchanged), without reading it — as ESLint's default `metadata` strategy does; undefined
   * when anything differs, and then the content decides (`get`).
   */
  byMetadata(path: string, settings: CacheSettings, file: string): FileReport | undefined {
    const entry = this.#files[path];
    if (entry?.size === undefined || entry.settings !== this.#settingsHash(settings)) return undefined;
    if (!this.#unchanged(path, entry)) return undefined;
    this.hits++;
    return entry.report.file === file ? entry.report : renamed(entry.report, file);
  }

  /**
   * Whether a file (by its absolute path) is one whose head said it is a manifest when it was last linted, and
   * unchanged since (size and time as recorded): a folder search takes it without opening it. Any doubt is false,
   * and the search reads the file's head as it would without a cache.
   */
  knownManifest(path: string): boolean {
    const entry = this.#files[path];
    return entry?.manifestHead === true && this.#unchanged(path, entry);
  }

  /** The cached report of a file (by its absolute path) whose content and configuration are unchanged, under the name given now. */
  get(path: string, bytes: Uint8Array, settings: CacheSettings, file: string): FileReport | undefined {
    const entry = this.#files[path];
    if (entry === undefined || entry.content !== this.#hashOf(bytes) || entry.settings !== this.#settingsHash(settings)) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Same content, new time (touched, checked out again): remember the time, so the next run need not read it.
    const metadata = metadataOf(path, bytes);
    if (metadata.mtimeMs !== entry.mtimeMs || metadata.size !== entry.size) {
      this.#files[path] = { ...entry, ...metadata };
      this.#changed = true;
    }
    return entry.report.file === file ? entry.report : renamed(entry.report, file);
  }

  /** Records a file's report; `manifestHead`: whether its head says it is a manifest (what a folder search looks for). */
  set(path: string, bytes: Uint8Array, settings: CacheSettings, report: FileReport, manifestHead: boolean): void {
    this.#files[path] = {
      content: this.#hashOf(bytes),
      settings: this.#settingsHash(settings),
      report,
      manifestHead,
      ...metadataOf(path, bytes),
    };
    this.#changed = true;
  }

  /** Writes the cache (atomically: a temporary file renamed over it); a failure is a warning, not an error. */
  save(): void {
    if (!this.#changed) return;
    const file: CacheFile = { format: FORMAT, version: FORMAT_VERSION, tool: this.#tool, rules: this.#rules, files: this.#files };
    try {
      mkdirSync(dirname(this.#path), { recursive: true });
      const temporary = `${this.#path}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(file));
      renameSync(temporary, this.#path);
    } catch (error) {
      this.warnings.push(`warning: the lint cache could not be written (${(error as Error).message}); the next run lints every file`);
    }
  }

  /** Whether the file's size and time are those recorded (and the time can be trusted); stated once per run. */
  #unchanged(path: string, entry: CacheEntry): boolean {
    let stat = this.#stats.get(path);
    if (!this.#stats.has(path)) {
      try {
        stat = statSync(path);
      } catch {
        stat = undefined;
      }
      this.#stats.set(path, stat);
    }
    return stat?.isFile() === true && stat.size === entry.size && stat.mtimeMs === entry.mtimeMs && trustworthy(entry);
  }

  #hashOf(bytes: Uint8Array): string {
    let hash = this.#hashes.get(bytes);
    if (hash === undefined) {
      hash = contentHash(bytes);
      this.#hashes.set(bytes, hash);
    }
    return hash;
  }

  #settingsHash({ severities, fixReplacements }: CacheSettings): string {
    // Each kind hashed when first asked for (a run asks for one): a cold SHA-1 of 2 KB is most of a millisecond.
    let hashes = this.#settings.get(severities);
    if (hashes === undefined) {
      hashes = [undefined, undefined];
      this.#settings.set(severities, hashes);
    }
    const kind = fixReplacements ? 1 : 0;
    let hash = hashes[kind];
    if (hash === undefined) {
      // The severities as they differ from each rule's own (a rule off, or at another severity; an id of no rule):
      // the rules themselves are in the cache's `tool` and `rules` keys, so this says all, and is short to hash.
      const differences: [string, string][] = [];
      for (const [id, own] of this.#defaults) if (severities.get(id) !== own) differences.push([id, severities.get(id) ?? 'off']);
      for (const [id, severity] of severities) if (!this.#defaults.has(id)) differences.push([id, severity]);
      const text = JSON.stringify(differences.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      hash = sha1Hex(`${text}${fixReplacements ? '/fix-replacements' : '/plain'}`);
      hashes[kind] = hash;
    }
    return hash;
  }
}

/** The size and modification time of a file as read now (nothing when it changed while it was read). */
function metadataOf(path: string, bytes: Uint8Array): { size?: number; mtimeMs?: number; checkedAt?: number } {
  try {
    const stat = statSync(path);
    return stat.size === bytes.length ? { size: stat.size, mtimeMs: stat.mtimeMs, checkedAt: Date.now() } : {};
  } catch {
    return {};
  }
}

/**
 * Whether a recorded time can tell a later change apart (git's "racily clean" problem): a file system with
 * sub-second times can; on one with whole seconds, only a file last changed two seconds or more before its
 * content was hashed — a change in the same second, of the same size, would otherwise go unseen.
 */
function trustworthy(entry: CacheEntry): boolean {
  if (entry.mtimeMs === undefined) return false;
  return entry.mtimeMs % 1000 !== 0 || (entry.checkedAt !== undefined && entry.mtimeMs < entry.checkedAt - 2000);
}

function cacheFilePath(location: string, cwd: string): string {
  const path = resolve(cwd, location);
  if (/[\\/]$/.test(location)) return join(path, CACHE_FILE_NAME);
  try {
    if (statSync(path).isDirectory()) return join(path, CACHE_FILE_NAME);
  } catch {}
  return path;
}

/** The cache file, when it is one mcprely wrote and every entry has the shape of one; else undefined. */
function parseCache(text: string): CacheFile | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const file = value as Partial<CacheFile>;
  if (file.format !== FORMAT || file.version !== FORMAT_VERSION || typeof file.tool !== 'string' || typeof file.rules !== 'string')
    return undefined;
  if (typeof file.files !== 'object' || file.files === null || Array.isArray(file.files)) return undefined;
  const files: Record<string, CacheEntry> = Object.create(null);
  for (const [path, entry] of Object.entries(file.files)) {
    if (!isEntry(entry)) return undefined;
    files[path] = entry;
  }
  return { ...(file as CacheFile), files };
}

function isEntry(entry: unknown): entry is CacheEntry {
  if (typeof entry !== 'object' || entry === null) return false;
  const { content, settings, report, size, mtimeMs } = entry as Partial<CacheEntry>;
  if (typeof content !== 'string' || typeof settings !== 'string' || typeof report !== 'object' || report === null) return false;
  const { checkedAt } = entry as Partial<CacheEntry>;
  for (const number of [size, mtimeMs, checkedAt]) if (number !== undefined && typeof number !== 'number') return false;
  const { manifestHead } = entry as Partial<CacheEntry>;
  if (manifestHead !== undefined && typeof manifestHead !== 'boolean') return false;
  const { file, findings, inputError } = report as Partial<FileReport>;
  return (
    typeof file === 'string' &&
    typeof inputError === 'boolean' &&
    Array.isArray(findings) &&
    findings.every(
      (finding) =>
        typeof finding === 'object' &&
        finding !== null &&
        typeof finding.ruleId === 'string' &&
        typeof finding.message === 'string' &&
        typeof finding.severity === 'string' &&
        ['error', 'warn', 'info'].includes(finding.severity),
    )
  );
}

/** A cached report given under another name of the same file (another working directory). */
function renamed(report: FileReport, file: string): FileReport {
  return { ...report, file, findings: report.findings.map((finding) => ({ ...finding, file })) };
}

/**
 * A content hash for telling versions of a file apart (not a security boundary: the cache is the user's own file).
 * The keys made of short texts (severities, the user's rules) are hashed by `sha1Hex` alike, without node:crypto.
 */
function contentHash(data: string | Uint8Array): string {
  return hexDigest('sha1', data);
}
