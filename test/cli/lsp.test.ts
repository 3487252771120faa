import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient, type LspDiagnostic, uriIn } from '../helpers/lsp-client.js';
import { runCli } from '../helpers/run-cli.js';

interface JsonFinding {
  ruleId: string;
  severity: 'error' | 'warn' | 'info';
  message: string;
  fix?: string;
  range?: { start: { line: number; column: number }; end: { line: number; column: number } };
  suppression?: unknown;
}

const COMPLETE = readFileSync('fixtures/examples/billing.yaml', 'utf8');
const FLAWED = readdirSync('fixtures/examples/flawed')
  .filter((name) => name.endsWith('.yaml'))
  .sort()
  .map((name) => `fixtures/examples/flawed/${name}`);
const SEVERITY = { error: 1, warn: 2, info: 3 } as const;

/** What `lint` reports for the file, as the diagnostics an editor should show: same places, severities, rules and words. */
function expectedDiagnostics(file: string, extra: string[] = []) {
  const report = JSON.parse(runCli(['lint', '-f', 'json', ...extra, file]).stdout) as { files: { findings: JsonFinding[] }[] };
  return report.files[0]!.findings.filter((finding) => finding.suppression === undefined).map((finding) => ({
    range: {
      start: { line: finding.range!.start.line - 1, character: finding.range!.start.column - 1 },
      end: { line: finding.range!.end.line - 1, character: finding.range!.end.column - 1 },
    },
    severity: SEVERITY[finding.severity],
    code: finding.ruleId,
    message: finding.fix === undefined ? finding.message : `${finding.message}. ${finding.fix}`,
  }));
}

const shown = (diagnostics: LspDiagnostic[]) =>
  diagnostics.map(({ range, severity, code, message }) => ({ range, severity, code, message }));

describe('mcprely lsp, driven over stdio as an editor drives it', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'mcprely-lsp-'));
  const uri = uriIn(workspace, 'billing.yaml');
  let client: LspClient;

  beforeAll(async () => {
    client = await LspClient.start(workspace);
  });

  afterAll(async () => {
    if (client.process.exitCode === null) client.process.kill();
  });

  it('the complete example, opened: no diagnostics', async () => {
    expect(await client.openAndWait(uri, COMPLETE)).toEqual([]);
  });

  it.each(FLAWED)('edited into %s: the diagnostics lint gives, with exact ranges, and a link to each rule page', async (file) => {
    const text = readFileSync(file, 'utf8');
    const version = client.version(uri) + 1;
    const published = client.diagnosticsOf(uri, version);
    await client.change(uri, text);
    const { diagnostics } = await published;
    expect(shown(diagnostics)).toEqual(expectedDiagnostics(file, ['--no-config']));
    expect(diagnostics.length).toBeGreaterThan(0);
    for (const diagnostic of diagnostics) {
      expect(diagnostic.source).toBe('mcprely');
      expect(diagnostic.codeDescription?.href).toBe(pathToFileURL(join(process.cwd(), 'docs', 'rules', `${diagnostic.code}.md`)).href);
    }
  });

  it('a claim change, applied, takes its diagnostic away, offered as a quick fix never preferred; so is a suggestion', async () => {
    for (const file of ['fixtures/examples/flawed/last-event-id.yaml', 'fixtures/examples/flawed/progress-resets-max.yaml']) {
      const before = client.diagnosticsOf(uri, client.version(uri) + 1);
      await client.change(uri, readFileSync(file, 'utf8'));
      const { diagnostics } = await before;
      const target = diagnostics[0]!;
      const actions = (await client.connection.sendRequest('textDocument/codeAction', {
        textDocument: { uri },
        range: target.range,
        context: { diagnostics: [target] },
      })) as {
        title: string;
        kind: string;
        isPreferred: boolean;
        edit: { documentChanges: { textDocument: { version: number }; edits: [] }[] };
      }[];
      // Every bundled rule's fix changes a claim: offered, never preferred, and titled so the server is changed too.
      expect(actions.some((action) => action.isPreferred)).toBe(false);
      const fix = actions.find((action) => action.title.endsWith('; make the server do it'));
      expect(fix, JSON.stringify(actions)).toBeDefined();
      expect(fix!.title).toMatch(/^(claims|no longer claims) /);
      expect(fix!.kind).toBe('quickfix');
      expect(fix!.edit.documentChanges[0]!.textDocument.version).toBe(client.version(uri));
      const document = TextDocument.create(uri, 'yaml', client.version(uri), readFileSync(file, 'utf8'));
      const fixed = TextDocument.applyEdits(document, fix!.edit.documentChanges[0]!.edits);
      const after = client.diagnosticsOf(uri, client.version(uri) + 1);
      await client.change(uri, fixed);
      expect((await after).diagnostics.filter((diagnostic) => diagnostic.code === target.code)).toEqual([]);
    }
    const suggested = client.diagnosticsOf(uri, client.version(uri) + 1);
    await client.change(uri, readFileSync('fixtures/examples/flawed/unbounded-progress-buffer.yaml', 'utf8'));
    const target = (await suggested).diagnostics[0]!;
    const actions = (await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: target.range,
      context: { diagnostics: [target] },
    })) as { title: string; isPreferred: boolean }[];
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.every((action) => !action.isPreferred && action.title.startsWith('Suggested: '))).toBe(true);
    // Nothing was written: the workspace holds no file.
    expect(readdirSync(workspace)).toEqual([]);
  });

  it("hovering over a finding shows its rule's page", async () => {
    const published = client.diagnosticsOf(uri, client.version(uri) + 1);
    await client.change(uri, readFileSync('fixtures/examples/flawed/no-max-timeout.yaml', 'utf8'));
    const target = (await published).diagnostics[0]!;
    const hover = (await client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: target.range.start })) as {
      contents: { kind: string; value: string };
    };
    expect(hover.contents.kind).toBe('markdown');
    expect(hover.contents.value).toContain(`**${target.code}**`);
    expect(hover.contents.value).toContain('**Why.**');
    const nowhere = await client.connection.sendRequest('textDocument/hover', {
      textDocument: { uri },
      position: { line: 0, character: 0 },
    });
    expect(nowhere).toBeNull();
  });

  it('malformed text mid-edit: the syntax diagnostic lint gives, and the server carries on', async () => {
    const broken = 'mcprely: 1\nserver: [a, b\n';
    const published = client.diagnosticsOf(uri, client.version(uri) + 1);
    await client.change(uri, broken);
    const { diagnostics } = await published;
    const file = join(workspace, 'broken.yaml');
    writeFileSync(file, broken);
    expect(shown(diagnostics)).toEqual(expectedDiagnostics(file, ['--no-config']));
    expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['manifest-syntax']);
    const again = client.diagnosticsOf(uri, client.version(uri) + 1);
    await client.change(uri, COMPLETE);
    expect((await again).diagnostics).toEqual([]);
  });

  it('a file that is not a manifest is left alone; a JSON manifest is linted as JSON', async () => {
    const notes = uriIn(workspace, 'notes.yaml');
    const json = uriIn(workspace, 'm.json');
    const published = client.diagnosticsOf(json, 1);
    await client.open(notes, 'title: not a manifest\nitems: [1, 2\n');
    await client.open(json, '{ "mcprely": 1, "specVersion": "2026-07-28" }', 'json');
    expect((await published).diagnostics.map((diagnostic) => diagnostic.code)).toContain('manifest-schema');
    expect(client.published.some((entry) => entry.uri === notes)).toBe(false);
  });

  it('a manifest over the size limit: the diagnostic lint gives for it, at the start', async () => {
    const diagnostics = await client.openAndWait(uriIn(workspace, 'huge.yaml'), `${COMPLETE}${'# padding\n'.repeat(220_000)}`);
    expect(diagnostics.map(({ code, range }) => ({ code, range }))).toEqual([
      { code: 'manifest-file', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
    ]);
    expect(diagnostics[0]!.message).toMatch(/over the 2097152-byte limit/);
  });

  it('shuts down cleanly', async () => {
    expect(await client.stop()).toBe(0);
    expect(client.stderr.join('')).not.toMatch(/could not lint|Error/);
  });
});

describe('mcprely lsp with a configuration in the workspace', () => {
  it('uses the configuration lint would find there', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'mcprely-lsp-config-'));
    writeFileSync(join(workspace, 'mcprely.config.yaml'), 'extends: [recommended]\nrules:\n  deadline-max-required: warn\n');
    const client = await LspClient.start(workspace);
    const diagnostics = await client.openAndWait(
      uriIn(workspace, 'a.yaml'),
      readFileSync('fixtures/examples/flawed/no-max-timeout.yaml', 'utf8'),
    );
    expect(diagnostics.map(({ code, severity }) => ({ code, severity }))).toEqual([{ code: 'deadline-max-required', severity: 2 }]);
    expect(await client.stop()).toBe(0);
  });
});

describe('mcprely lsp timing of lints', () => {
  it('lints a document as it opens, not after the pause it waits for after typing', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'mcprely-lsp-open-'));
    // A 5 s pause after typing: an opened document must not wait for it.
    const client = await LspClient.start(workspace, { debounceMs: 5000 });
    const started = performance.now();
    expect(await client.openAndWait(uriIn(workspace, 'a.yaml'), COMPLETE)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(2500);
    expect(await client.stop()).toBe(0);
  });
});

describe('mcprely lsp under hostile edits', () => {
  it('any text, typed in any order, gets its diagnostics and never stops the server (150 random edits)', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'mcprely-lsp-hostile-'));
    const client = await LspClient.start(workspace, { debounceMs: 0 });
    const uri = uriIn(workspace, 'a.yaml');
    await client.openAndWait(uri, COMPLETE);
    const piece = fc.oneof(
      fc.constantFrom(
        'mcprely: 1\n',
        '\t',
        '\r\n',
        ': ',
        '- ',
        '[',
        '{',
        '"',
        "'",
        '&a ',
        '*a',
        '!!str ',
        '# ',
        '\u202e',
        '\u0000',
        '😀',
        'x'.repeat(300),
      ),
      fc.string({ maxLength: 20 }),
    );
    const edit = fc.record({
      at: fc.nat(),
      cut: fc.nat({ max: 40 }),
      insert: fc.array(piece, { maxLength: 4 }).map((parts) => parts.join('')),
    });
    let text = COMPLETE;
    await fc.assert(
      fc.asyncProperty(edit, async ({ at, cut, insert }) => {
        const place = at % (text.length + 1);
        // Keep a top-level mcprely key most of the time, so most texts are manifests being edited.
        text = `${text.slice(0, place)}${insert}${text.slice(place + cut)}`;
        if (!text.startsWith('mcprely: 1\n') && at % 4 !== 0) text = `mcprely: 1\n${text}`;
        const version = client.version(uri) + 1;
        const published = Promise.race([
          client.diagnosticsOf(uri, version).then(({ diagnostics }) => diagnostics),
          new Promise<'none'>((done) => setTimeout(() => done('none'), 3000)),
        ]);
        await client.change(uri, text);
        const diagnostics = await published;
        // A manifest gets its diagnostics; a text that is no longer one may get none.
        if (/^mcprely\s*:/m.test(text)) expect(diagnostics, JSON.stringify(text.slice(0, 200))).not.toBe('none');
        expect(client.process.exitCode).toBeNull();
      }),
      { numRuns: 150 },
    );
    expect(client.stderr.join('')).not.toMatch(/could not lint/);
    expect(await client.stop()).toBe(0);
  }, 120_000);
});
