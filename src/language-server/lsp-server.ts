import { basename, extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  type CodeAction,
  type Connection,
  createConnection,
  type Diagnostic,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
  TextDocuments,
} from 'vscode-languageserver/node.js';
import { MAX_MANIFEST_BYTES } from '../document/limits.js';
import type { Finding } from '../findings/finding.js';
import type { RuleDescriptor } from '../findings/rule-descriptor.js';
import type { RuleSet } from '../rules/load-rules.js';
import { withFixReplacements } from '../lint/fix-replacements.js';
import { lintFile } from '../lint/lint-file.js';
import { reportableRules } from '../rules/rule-descriptors.js';
import { MANIFEST_HEAD_BYTES, textLooksLikeManifest } from '../workspace/expand-paths.js';
import { loadSettings, type Settings, SettingsError } from '../workspace/load-settings.js';
import { codeActionsOf, contains, diagnosticOf, hoverOf, rangeOf } from './lsp-findings.js';
import { tooLargeFinding } from '../workspace/read-manifest-file.js';
import { rulePageFile } from '../workspace/rule-docs-base.js';

/** How long after the last change a document is linted: typing stays fluid, and a pause shows the findings. */
export const DEBOUNCE_MS = 150;

/** The latest lint of an open document: the findings its diagnostics were made from, for code actions and hovers. */
interface Linted {
  readonly version: number;
  readonly findings: readonly Finding[];
}

/**
 * `mcprely lsp`: a language server over standard input and output. Manifests (YAML or JSON with a top-level
 * `mcprely:` key) are linted as typed, with the configuration `lint` would find in the workspace folder; other
 * files are left alone. Nothing is written to disk; a code action's edit is applied by the editor when the user
 * picks it. A lint that throws is reported on the server's log, never as a crash.
 */
export function startLanguageServer(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Connection {
  const connection = createConnection(new StreamMessageReader(input), new StreamMessageWriter(output));
  const documents = new TextDocuments(TextDocument);
  const linted = new Map<string, Linted>();
  const timers = new Map<string, NodeJS.Timeout>();
  let root = process.cwd();
  let debounceMs = DEBOUNCE_MS;
  let settings:
    | Promise<{ readonly settings: Settings; readonly ruleSet: RuleSet; readonly rules: ReadonlyMap<string, RuleDescriptor> }>
    | undefined;
  const pageOf = (ruleId: string) => {
    const page = rulePageFile(ruleId);
    return page === undefined ? undefined : pathToFileURL(page).href;
  };

  /** The configuration `lint` would use from the workspace folder; a broken one is reported and the recommended preset used. */
  const loadWorkspaceSettings = async () => {
    const loaded = await loadSettings(undefined, root).catch((error: unknown) => {
      const report = error instanceof SettingsError ? error.report : String(error);
      void connection.window.showErrorMessage(
        `mcprely: the configuration cannot be used; linting with the recommended rules. ${report.trim()}`,
      );
      return loadSettings(false, root);
    });
    const ruleSet = await loaded.ruleSet();
    return { settings: loaded, ruleSet, rules: new Map(reportableRules(ruleSet).map((rule) => [rule.id, rule])) };
  };

  const lint = async (document: TextDocument) => {
    const uri = document.uri;
    const file = uri.startsWith('file:') ? fileURLToPath(uri) : uri;
    const syntax = extname(file).toLowerCase() === '.json' || document.languageId === 'json' ? 'json' : 'yaml';
    const text = document.getText();
    if (!textLooksLikeManifest(text.slice(0, MANIFEST_HEAD_BYTES), syntax)) {
      // Not (or no longer) a manifest: whatever was shown for it goes.
      if (linted.delete(uri)) await connection.sendDiagnostics({ uri, diagnostics: [] });
      return;
    }
    try {
      settings ??= loadWorkspaceSettings();
      const { settings: current, ruleSet } = await settings;
      const bytes = Buffer.from(text, 'utf8');
      const named = syntax === 'json' && extname(file).toLowerCase() !== '.json' ? `${file}.json` : file;
      const findings =
        bytes.length > MAX_MANIFEST_BYTES
          ? [tooLargeFinding(file)]
          : lintFile(named, bytes, {
              ruleSet,
              severities: current.severitiesFor(file),
              fixReplacements: withFixReplacements,
            }).findings;
      // A newer version may have arrived while the settings loaded: only the latest is shown.
      if (documents.get(uri)?.version !== document.version) return;
      linted.set(uri, { version: document.version, findings });
      const diagnostics = findings.flatMap((finding, index) =>
        finding.suppression === undefined ? [diagnosticOf(finding, index, pageOf)] : [],
      );
      await connection.sendDiagnostics({ uri, version: document.version, diagnostics });
    } catch (error) {
      connection.console.error(`mcprely could not lint ${uri}: ${(error as Error).stack ?? String(error)}`);
    }
  };

  const schedule = (document: TextDocument, delay: number) => {
    clearTimeout(timers.get(document.uri));
    timers.set(
      document.uri,
      setTimeout(() => {
        timers.delete(document.uri);
        const latest = documents.get(document.uri);
        if (latest !== undefined) void lint(latest);
      }, delay),
    );
  };

  connection.onInitialize((params) => {
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri;
    if (folder?.startsWith('file:')) root = fileURLToPath(folder);
    // An editor may ask for another pause after typing (initializationOptions.debounceMs, 0 to 5000 ms).
    const asked = (params.initializationOptions as { debounceMs?: unknown } | undefined)?.debounceMs;
    if (typeof asked === 'number' && Number.isFinite(asked)) debounceMs = Math.min(5000, Math.max(0, asked));
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        codeActionProvider: { codeActionKinds: ['quickfix'] },
        hoverProvider: true,
      },
      serverInfo: { name: 'mcprely', version: typeof MCPRELY_VERSION === 'string' ? MCPRELY_VERSION : '0.0.0' },
    };
  });

  // An opened document is linted at once; TextDocuments also reports the opening as a change, which must not delay it.
  const openedAt = new Map<string, number>();
  documents.onDidOpen(({ document }) => {
    openedAt.set(document.uri, document.version);
    schedule(document, 0);
  });
  documents.onDidChangeContent(({ document }) => {
    if (openedAt.get(document.uri) !== document.version) schedule(document, debounceMs);
  });
  documents.onDidSave(({ document }) => {
    // A configuration saved in the workspace applies to every open manifest.
    if (/^mcprely\.config\.(ya?ml|json)$/.test(basename(document.uri))) {
      settings = undefined;
      for (const open of documents.all()) schedule(open, 0);
    }
  });
  documents.onDidClose(({ document }) => {
    openedAt.delete(document.uri);
    clearTimeout(timers.get(document.uri));
    timers.delete(document.uri);
    if (linted.delete(document.uri)) void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  });

  connection.onCodeAction(({ textDocument, context }) => {
    const state = linted.get(textDocument.uri);
    if (state === undefined || documents.get(textDocument.uri)?.version !== state.version) return [];
    const actions: CodeAction[] = [];
    for (const diagnostic of context.diagnostics as Diagnostic[]) {
      const index = (diagnostic.data as { finding?: unknown } | undefined)?.finding;
      const finding = typeof index === 'number' ? state.findings[index] : undefined;
      if (finding !== undefined) actions.push(...codeActionsOf(finding, diagnostic, textDocument.uri, state.version));
    }
    return actions;
  });

  connection.onHover(async ({ textDocument, position }) => {
    const state = linted.get(textDocument.uri);
    // A document is linted only once the configuration has loaded: its rules are the ones that described it.
    if (state === undefined || settings === undefined) return null;
    const here = state.findings.filter((finding) => finding.suppression === undefined && contains(rangeOf(finding), position));
    return here.length === 0 ? null : hoverOf(here, (await settings).rules, pageOf);
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}

declare const MCPRELY_VERSION: string | undefined;
