import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';
import { CLI, REPO_ROOT } from './run-cli.js';

export interface LspDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: number;
  code: string;
  codeDescription?: { href: string };
  source: string;
  message: string;
  data?: unknown;
}

interface Published {
  uri: string;
  version?: number;
  diagnostics: LspDiagnostic[];
}

/** The file: URI of a document named `name` in the workspace folder (never written: the server lints the text it is sent). */
export function uriIn(workspace: string, name: string): string {
  return pathToFileURL(join(workspace, name)).href;
}

/** A language client as an editor would be: `mcprely lsp --stdio` in its own process, spoken to with vscode-jsonrpc. */
export class LspClient {
  readonly published: Published[] = [];
  readonly stderr: string[] = [];
  readonly #waiters: { uri: string; version: number | undefined; done: (published: Published) => void }[] = [];
  #versions = new Map<string, number>();

  private constructor(
    readonly process: ChildProcess,
    readonly connection: MessageConnection,
  ) {
    connection.onNotification('textDocument/publishDiagnostics', (published: Published) => {
      this.published.push(published);
      for (const waiter of [...this.#waiters])
        if (waiter.uri === published.uri && (waiter.version === undefined || published.version === waiter.version)) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.done(published);
        }
    });
    connection.onNotification('window/logMessage', (message: { message: string }) => this.stderr.push(message.message));
    connection.onRequest('window/showMessageRequest', () => null);
    connection.onNotification('window/showMessage', (message: { message: string }) => this.stderr.push(message.message));
  }

  /** Starts the server and initializes it with `workspace` as the workspace folder. */
  static async start(workspace: string, initializationOptions: Record<string, unknown> = {}): Promise<LspClient> {
    const child = spawn(process.execPath, [CLI, 'lsp', '--stdio'], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const client = new LspClient(child, connection);
    child.stderr!.on('data', (chunk: Buffer) => client.stderr.push(chunk.toString()));
    connection.listen();
    const uri = pathToFileURL(workspace).href;
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: uri,
      workspaceFolders: [{ uri, name: 'workspace' }],
      capabilities: { textDocument: { publishDiagnostics: { versionSupport: true }, codeAction: {}, hover: {} } },
      initializationOptions,
    });
    await connection.sendNotification('initialized', {});
    return client;
  }

  /** The next diagnostics published for the document (at this version, when given). */
  diagnosticsOf(uri: string, version?: number): Promise<Published> {
    return new Promise((done) => this.#waiters.push({ uri, version, done }));
  }

  async open(uri: string, text: string, languageId = 'yaml'): Promise<void> {
    this.#versions.set(uri, 1);
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
  }

  /** Opens the document and waits for its first diagnostics. */
  async openAndWait(uri: string, text: string, languageId = 'yaml'): Promise<LspDiagnostic[]> {
    const published = this.diagnosticsOf(uri, 1);
    await this.open(uri, text, languageId);
    return (await published).diagnostics;
  }

  /** Replaces the document's whole text; returns the new version. */
  async change(uri: string, text: string): Promise<number> {
    const version = (this.#versions.get(uri) ?? 1) + 1;
    this.#versions.set(uri, version);
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
    return version;
  }

  version(uri: string): number {
    return this.#versions.get(uri) ?? 0;
  }

  /** Shuts the server down as an editor does; resolves with its exit code. */
  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((done) => this.process.once('exit', (code) => done(code)));
    await this.connection.sendRequest('shutdown');
    await this.connection.sendNotification('exit');
    const code = await exited;
    this.connection.dispose();
    return code;
  }
}
