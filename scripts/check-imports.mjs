// The import boundary check: reads every import in src/ and holds the rooms of docs/architecture.md.
// 1. A folder imports only the folders its row below allows (type-only imports count too).
// 2. The folder graph has no cycle, and neither has the file graph (a cycle inside one folder is one too).
// 3. No file outside src/spec/ names a revision of the MCP specification in code (comments may):
//    everything that differs by revision is a fact in src/spec/revision-facts.ts.
// 4. No file of a pure room (PURE_ROOMS) reaches, directly or through what it imports, src/reference, the file
//    system, sockets, processes or a database (FORBIDDEN_REACH), except the pure files of PURE_EXCEPTIONS.
// Prints the folder graph; exits 1 on any violation. Run by `npm test` (test/architecture.test.ts) and CI.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Each folder of src/ and the folders it may import; anything else is a violation. Lower layers first. */
export const ALLOWED = {
  json: [],
  text: [],
  html: ['text'],
  document: ['text'],
  protocol: [],
  spec: ['protocol'],
  generated: ['document'],
  findings: ['document', 'text'],
  manifest: ['protocol', 'document', 'spec', 'generated'],
  reference: ['protocol', 'spec', 'json'],
  policy: ['protocol', 'manifest', 'spec', 'reference'],
  rules: ['document', 'findings', 'manifest', 'policy', 'reference', 'spec', 'json', 'generated'],
  config: ['document', 'findings', 'rules', 'generated'],
  lint: ['document', 'findings', 'manifest', 'rules'],
  'rule-docs': ['lint', 'rules', 'spec', 'findings'],
  report: ['findings', 'lint', 'text'],
  fixtures: ['protocol', 'manifest', 'policy', 'spec', 'text'],
  simulator: ['protocol', 'fixtures', 'reference', 'policy', 'spec', 'json', 'text'],
  review: ['protocol', 'html', 'simulator', 'fixtures', 'findings', 'manifest', 'policy', 'reference', 'spec', 'text'],
  live: ['findings', 'manifest', 'policy'],
  evidence: ['html', 'review', 'simulator', 'fixtures', 'findings', 'manifest', 'policy', 'reference', 'spec', 'json', 'text', 'live'],
  verify: ['simulator', 'fixtures', 'document', 'manifest', 'generated', 'json', 'text', 'findings', 'report'],
  probe: [
    'protocol',
    'manifest',
    'policy',
    'reference',
    'spec',
    'findings',
    'lint',
    'report',
    'document',
    'json',
    'text',
    'fixtures',
    'live',
    'judges',
    'recording',
  ],
  init: ['protocol', 'probe', 'manifest', 'policy', 'spec', 'live', 'text'],
  judges: ['protocol', 'document', 'findings', 'live', 'manifest', 'reference', 'spec', 'text'],
  recording: ['protocol', 'judges'],
  listener: ['protocol'],
  // What every MCP server of mcprely shares: the envelope, the handshake replies, the stdio lines, the HTTP exchange.
  'mcp-serving': ['listener', 'protocol', 'spec'],
  proxy: ['protocol', 'judges', 'listener', 'probe', 'recording', 'text'],
  'probe-client': ['protocol', 'judges', 'listener', 'live', 'mcp-serving', 'recording', 'spec', 'text'],
  audit: ['protocol', 'html', 'judges', 'live', 'review', 'simulator', 'text'],
  workspace: ['config', 'document', 'findings', 'generated', 'lint', 'report', 'rules', 'text'],
  'lint-cache': ['json', 'lint', 'rules', 'text'],
  'fix-writer': ['document', 'findings', 'lint', 'rules', 'text'],
  'bundle-writer': ['text', 'workspace'],
  'language-server': ['document', 'findings', 'lint', 'rules', 'workspace'],
  catalog: ['findings', 'judges', 'live', 'probe', 'probe-client', 'rule-docs', 'rules', 'text'],
  // The Node API (the package's main export): what the CLI and the Action call; it prints nothing and never exits.
  api: [
    'bundle-writer',
    'catalog',
    'config',
    'document',
    'evidence',
    'findings',
    'fix-writer',
    'fixtures',
    'init',
    'judges',
    'lint',
    'lint-cache',
    'listener',
    'live',
    'manifest',
    'probe',
    'probe-client',
    'protocol',
    'proxy',
    'recording',
    'reference',
    'review',
    'rules',
    'simulator',
    'spec',
    'text',
    'verify',
    'workspace',
  ],
  // `mcprely mcp`: a front end over the Node API, as the CLI is (the API never imports it).
  'mcp-server': ['api', 'document', 'findings', 'listener', 'mcp-serving', 'protocol', 'recording', 'review', 'spec', 'text', 'workspace'],
  cli: ['*'],
  action: ['*'],
};

const REVISION = /\b20\d\d-\d\d-\d\d\b/;

/**
 * The rooms that claim purity (docs/architecture.md: the core, document through review, and the live half's pure
 * layers): text and data in, data out. None of their files may reach what FORBIDDEN_REACH names, by any chain of
 * imports that loads at run time (`import type` loads nothing and is not followed).
 */
export const PURE_ROOMS = [
  'protocol',
  'json',
  'text',
  'html',
  'document',
  'spec',
  'generated',
  'findings',
  'manifest',
  'policy',
  'rules',
  'config',
  'lint',
  'rule-docs',
  'report',
  'fixtures',
  'review',
  'live',
  'judges',
  'listener',
  'catalog',
];

/** What a pure file may not reach: the reference implementation (its ledgers, task store, processes) and these modules. */
export const FORBIDDEN_REACH = {
  folders: ['reference'],
  modules: [
    'node:fs',
    'node:fs/promises',
    'fs',
    'fs/promises',
    'node:net',
    'net',
    'node:child_process',
    'child_process',
    'node:http',
    'http',
    'node:https',
    'https',
    'node:http2',
    'http2',
    'node:dgram',
    'dgram',
    'node:tls',
    'tls',
    'node:worker_threads',
    'worker_threads',
    'node:sqlite',
    'better-sqlite3',
    'pg',
  ],
};

/**
 * Files of src/reference a pure room may reach, and why. Each is pure itself: the check follows its imports as
 * any other's, so one that came to import the file system would be reported through it.
 */
export const PURE_EXCEPTIONS = {
  // The retry classification (SAFE, CONDITIONAL, UNSAFE) of an operation: the policy's predicates ask it, and
  // the reference exports it to servers, so there is one answer (a pure function of the operation).
  'reference/classify-retry.ts': 'the retry classification the policy shares with the reference',
  // The SSE headers a proxy needs and the reconnect plan: the review's reconnect section and the HTTP judges
  // state what the reference does (pure functions; node:crypto only, through createRequire, for a digest).
  'reference/recovery.ts': 'the SSE header set and reconnect plan the review and the judges share with the reference',
  // What those two throw with and check their arguments by (error classes and pure checks).
  'reference/errors.ts': 'the errors the two above throw',
  'reference/validate-arguments.ts': 'the argument checks of the two above',
};

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : /\.(ts|js)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The code of a file with comments blanked out (strings and templates kept), for the revision check. */
function withoutComments(text) {
  let out = '';
  let i = 0;
  let quote = null;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (quote !== null) {
      out += c;
      if (c === '\\') {
        out += next ?? '';
        i += 2;
        continue;
      }
      if (c === quote) quote = null;
      i++;
      continue;
    }
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    out += c;
    i++;
  }
  return out;
}

/** Checks the tree under `src` (the repository's own by default); returns the problems and the folder graph. */
export function checkImports(src = join(root, 'src')) {
  const problems = [];
  const edges = new Map();
  const fileEdges = new Map();
  const folderOf = (file) => relative(src, file).split(/[\\/]/)[0];
  for (const file of walk(src)) {
    const from = folderOf(file);
    const text = readFileSync(file, 'utf8');
    const shown = relative(dirname(src), file);
    if (!(from in ALLOWED) && !from.endsWith('.ts'))
      problems.push(`${shown}: the folder src/${from} has no row in the import table (scripts/check-imports.mjs)`);
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), match[1]);
      if (!target.startsWith(src)) continue;
      if (!fileEdges.has(file)) fileEdges.set(file, new Set());
      fileEdges.get(file).add(target.replace(/\.js$/, '.ts'));
      const to = folderOf(target);
      if (to === from || to.endsWith('.ts')) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from).add(to);
      const allowed = ALLOWED[from] ?? [];
      if (!allowed.includes('*') && !allowed.includes(to)) problems.push(`${shown}: src/${from} may not import src/${to} (${match[1]})`);
    }
    if (from !== 'spec' && from !== 'generated') {
      const code = withoutComments(text);
      const found = REVISION.exec(code);
      if (found !== null)
        problems.push(
          `${shown}:${code.slice(0, found.index).split('\n').length}: names the revision ${found[0]}; ` +
            'read it from the table of revision facts (src/spec) instead',
        );
    }
  }
  // A cycle between folders, found by depth-first search over the edges.
  const state = new Map();
  const visit = (folder, path) => {
    state.set(folder, 'open');
    for (const next of edges.get(folder) ?? []) {
      if (state.get(next) === 'open')
        problems.push(`import cycle between folders: ${[...path.slice(path.indexOf(next)), next].join(' → ')}`);
      else if (!state.has(next)) visit(next, [...path, next]);
    }
    state.set(folder, 'done');
  };
  for (const folder of edges.keys()) if (!state.has(folder)) visit(folder, [folder]);
  // The same over files: two files that import each other load in an order that depends on who is imported first.
  const fileState = new Map();
  const shownFile = (file) => relative(dirname(src), file);
  const visitFile = (file, path) => {
    fileState.set(file, 'open');
    for (const next of fileEdges.get(file) ?? []) {
      if (fileState.get(next) === 'open')
        problems.push(`import cycle between files: ${[...path.slice(path.indexOf(next)), next].map(shownFile).join(' → ')}`);
      else if (!fileState.has(next)) visitFile(next, [...path, next]);
    }
    fileState.set(file, 'done');
  };
  for (const file of fileEdges.keys()) if (!fileState.has(file)) visitFile(file, [file]);
  problems.push(...checkPurity(src));
  return { problems, edges };
}

/** The specifiers a file loads at run time: every import and re-export but `import type` and `export type`, and `import()`. */
function runtimeImports(text) {
  const code = withoutComments(text);
  const specifiers = [];
  for (const match of code.matchAll(/(?:^|[;}\n])\s*(?:import|export)\s+(type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g))
    if (match[1] === undefined) specifiers.push(match[2]);
  for (const match of code.matchAll(/(?:^|[;}\n])\s*import\s*['"]([^'"]+)['"]/g)) specifiers.push(match[1]);
  for (const match of code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) specifiers.push(match[1]);
  // Loads that are no import statement: require('…'), createRequire(…)('…'), process.getBuiltinModule('…').
  for (const match of code.matchAll(/\b(?:require|getBuiltinModule)\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) specifiers.push(match[1]);
  for (const match of code.matchAll(/\bcreateRequire\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*\(\s*['"]([^'"]+)['"]\s*\)/g))
    specifiers.push(match[1]);
  return specifiers;
}

/**
 * Rule 4: each file of a pure room, and the first chain of run-time imports by which it reaches each forbidden
 * thing (a folder of src/ or a module). Returns the problems, one per file and thing reached.
 */
export function checkPurity(src = join(root, 'src')) {
  const files = walk(src);
  const shownFile = (file) => relative(dirname(src), file);
  const folderOf = (file) => relative(src, file).split(/[\\/]/)[0];
  const imports = new Map();
  for (const file of files) {
    const targets = runtimeImports(readFileSync(file, 'utf8')).map((specifier) =>
      specifier.startsWith('.') ? { file: resolve(dirname(file), specifier).replace(/\.js$/, '.ts') } : { module: specifier },
    );
    imports.set(file, targets);
  }
  const excepted = new Set(Object.keys(PURE_EXCEPTIONS).map((path) => join(src, path)));
  // What each file reaches: forbidden thing → the chain of files to it. Memoised; a cycle (reported by rule 2) is cut.
  const reached = new Map();
  const reach = (file) => {
    const known = reached.get(file);
    if (known !== undefined) return known;
    const found = new Map();
    reached.set(file, found);
    for (const target of imports.get(file) ?? []) {
      if (target.module !== undefined) {
        if (FORBIDDEN_REACH.modules.includes(target.module) && !found.has(target.module)) found.set(target.module, [file]);
        continue;
      }
      if (!target.file.startsWith(src)) continue;
      const folder = folderOf(target.file);
      if (FORBIDDEN_REACH.folders.includes(folder) && !excepted.has(target.file) && !found.has(`src/${folder}`))
        found.set(`src/${folder}`, [file, target.file]);
      for (const [thing, chain] of reach(target.file)) if (!found.has(thing)) found.set(thing, [file, ...chain]);
    }
    return found;
  };
  const problems = [];
  for (const file of files) {
    const room = folderOf(file);
    if (!PURE_ROOMS.includes(room)) continue;
    for (const [thing, chain] of reach(file))
      problems.push(
        `${shownFile(file)}: the pure room src/${room} reaches ${thing} ` +
          `(${[...chain.map(shownFile), ...(thing.startsWith('src/') ? [] : [thing])].join(' → ')})`,
      );
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { problems, edges } = checkImports();
  for (const [from, targets] of [...edges].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`src/${from} → ${[...targets].sort().join(', ')}`);
  if (problems.length === 0)
    console.log(
      `import check: ${edges.size} folders, every import within its layer, no cycle of folders or files, revisions only in src/spec, ` +
        `pure rooms pure`,
    );
  else for (const problem of problems) console.log(`FAIL ${problem}`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}
