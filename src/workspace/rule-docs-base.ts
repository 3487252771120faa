import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RuleDocsBase } from '../report/report-context.js';
import { relativeUri } from '../text/relative-uri.js';

/**
 * Where a report links rule pages: under `docsUrl` when one is given (an http(s) address of a docs/rules/
 * folder), else relative to the report's own folder (its --output file, or the working directory for standard
 * output) to the docs/rules/ folder of this installed package. Undefined when neither exists.
 */
export function ruleDocsBase(docsUrl: string | undefined, reportFile: string | undefined, cwd: string): RuleDocsBase | undefined {
  if (docsUrl !== undefined) return { base: docsUrl, absolute: true };
  const root = packageRoot();
  if (root === undefined) return undefined;
  const folder = join(root, 'docs', 'rules');
  if (!existsSync(folder)) return undefined;
  const from = reportFile === undefined ? cwd : dirname(resolve(cwd, reportFile));
  const path = relativeUri(relative(from, folder));
  return { base: path === '' ? '' : `${path}/`, absolute: false };
}

/**
 * A page's links to rule pages (relative to the page's file, in this installed package): a rule without a page
 * of its own (a user rule) gets none.
 */
export function ruleDocLinks(pageFile: string, cwd: string): (ruleId: string) => string | undefined {
  const docs = ruleDocsBase(undefined, pageFile, cwd);
  return (ruleId) =>
    docs === undefined || rulePageFile(ruleId) === undefined ? undefined : `${docs.base}${encodeURIComponent(ruleId)}.md`;
}

const rulePages = new Map<string, string | undefined>();

/** The file of a rule's page in this installed package, or undefined (a user rule has none); looked up once per rule. */
export function rulePageFile(ruleId: string): string | undefined {
  if (!rulePages.has(ruleId)) {
    const root = packageRoot();
    const file = root === undefined ? undefined : join(root, 'docs', 'rules', `${ruleId}.md`);
    rulePages.set(ruleId, file !== undefined && existsSync(file) ? file : undefined);
  }
  return rulePages.get(ruleId);
}

/** `--docs-url`: an http or https address, ending in a slash so `<rule id>.md` can follow it. */
export function parseDocsUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--docs-url ${value} is not an absolute URL; give the address of a docs/rules/ folder, such as https://…/docs/rules/`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`--docs-url must be an http or https address, not ${url.protocol}`);
  if (url.search !== '' || url.hash !== '') throw new Error('--docs-url must not carry a query or a fragment');
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

let cachedRoot: string | null | undefined;

/** The folder of this package (the nearest package.json named mcprely above this module), or undefined. */
export function packageRoot(): string | undefined {
  if (cachedRoot !== undefined) return cachedRoot ?? undefined;
  let folder = dirname(fileURLToPath(import.meta.url));
  cachedRoot = null;
  for (;;) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'mcprely') {
          cachedRoot = folder;
          break;
        }
      } catch {
        // not ours; keep looking
      }
    }
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return cachedRoot ?? undefined;
}
