import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { type McpTool, type ToolContext, type ToolOutcome, toolListing } from '../../src/mcp-server/mcp-tool.js';
import { MCP_TOOLS, mcpToolNamed } from '../../src/mcp-server/mcp-tools.js';
import { mcprelyToolServer } from '../../src/mcp-server/mcprely-tool-server.js';
import { serveMessage } from '../../src/mcp-serving/served-message.js';

/**
 * Each tool of mcprely mcp in process: good and bad input, path escapes, malformed manifests, cancellation; every
 * structured result valid against the tool's declared output schema.
 */
const folder = mkdtempSync(join(tmpdir(), 'mcprely-mcp-tools-'));
const outside = mkdtempSync(join(tmpdir(), 'mcprely-mcp-outside-'));
writeFileSync(join(outside, 'secret.yaml'), readFileSync('fixtures/examples/docs-search.yaml'));
writeFileSync(join(folder, 'docs-search.yaml'), readFileSync('fixtures/examples/docs-search.yaml'));
writeFileSync(join(folder, 'billing.yaml'), readFileSync('fixtures/examples/billing.yaml'));
mkdirSync(join(folder, 'nested'));
writeFileSync(join(folder, 'nested', 'flawed.yaml'), readFileSync('fixtures/examples/flawed/no-max-timeout.yaml'));
symlinkSync(join(outside, 'secret.yaml'), join(folder, 'escape.yaml'));
symlinkSync(outside, join(folder, 'elsewhere'));
writeFileSync(join(folder, 'huge.yaml'), `# ${'x'.repeat(2 * 1024 * 1024)}\n`);

const FLAWED = readFileSync('fixtures/examples/flawed/no-max-timeout.yaml', 'utf8');
/** export_report's entry, as written under operations: (lines 13 on of the flawed example). */
const FLAWED_OPERATION = FLAWED.split('\n').slice(12).join('\n');
const MALFORMED = 'mcprely: 1\nspecVersion: "2025-11-25"\nserver:\n  name: x\n  transports: [stdio\n';

const ajv = new Ajv2020({ strict: false, allErrors: true });

interface Called {
  readonly outcome: ToolOutcome;
  readonly progress: { done: number; total: number }[];
}

async function call(name: string, args: Record<string, unknown>, signal = new AbortController().signal): Promise<Called> {
  const tool = mcpToolNamed(name) as McpTool;
  const progress: { done: number; total: number }[] = [];
  const context: ToolContext = {
    workingFolder: folder,
    signal,
    progress: (done, total) => progress.push({ done, total }),
    otherCallsRunning: () => 0,
  };
  const outcome = await tool.run(args, context);
  if (outcome.ok) {
    const valid = ajv.validate(tool.outputSchema, outcome.structured);
    expect(ajv.errors ?? [], `${name}'s structured result against its output schema`).toEqual([]);
    expect(valid).toBe(true);
  }
  return { outcome, progress };
}

const structured = (called: Called) => {
  if (!called.outcome.ok) throw new Error(`a tool error: ${called.outcome.message}`);
  // biome-ignore lint/suspicious/noExplicitAny: read as the output schema, checked in call(), says
  return called.outcome.structured as Record<string, any>;
};
const toolErrorOf = (called: Called) => {
  if (called.outcome.ok) throw new Error('no tool error');
  return called.outcome.message;
};

describe('the tools as tools/list declares them', () => {
  it('each has an input and an output schema ajv compiles, and the read-only annotations', () => {
    expect(MCP_TOOLS.map((tool) => tool.name)).toEqual([
      'lint_manifest',
      'review_operation',
      'generate_fixtures',
      'explain_rule',
      'manifest_from_tools',
      'server_status',
    ]);
    for (const tool of MCP_TOOLS) {
      const listed = toolListing(tool);
      expect(listed['annotations']).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
      expect(() => ajv.compile(tool.outputSchema)).not.toThrow();
      expect(tool.outputSchema['type']).toBe('object');
    }
  });
});

describe('a tools/call as the server reads it', () => {
  const server = mcprelyToolServer('test');
  const served = (params: Record<string, unknown>) =>
    serveMessage(server, { jsonrpc: '2.0', id: 7, method: 'tools/call', params }, { transport: 'stdio', sessionRevision: '2025-11-25' });

  it('an unknown tool: a JSON-RPC error -32602 naming the tools', () => {
    expect(served({ name: 'rm_rf' })).toMatchObject({
      kind: 'reply',
      message: {
        id: 7,
        error: { code: -32602, message: expect.stringMatching(/Unknown tool: "rm_rf"; mcprely's tools are lint_manifest/) },
      },
    });
  });

  it('arguments that are not an object: a tool error, not a protocol error', () => {
    expect(served({ name: 'lint_manifest', arguments: 'x' })).toMatchObject({
      kind: 'reply',
      message: { id: 7, result: { isError: true, content: [{ type: 'text', text: 'the arguments of lint_manifest are an object' }] } },
    });
  });

  it('a call with its progress token', () => {
    expect(served({ name: 'explain_rule', arguments: { id: 'x' }, _meta: { progressToken: 'p' } })).toMatchObject({
      kind: 'call',
      id: 7,
      token: 'p',
      args: { id: 'x' },
    });
  });
});

describe('a manifest by path: only under the working folder', () => {
  it.each([
    ['../x.yaml', /has a \.\. segment/],
    ['nested/../../x.yaml', /has a \.\. segment/],
    [join(outside, 'secret.yaml'), /is outside the working folder/],
    ['/etc/passwd', /is outside the working folder/],
    ['escape.yaml', /symbolic link .* outside the working folder/],
    ['elsewhere/secret.yaml', /symbolic link .* outside the working folder/],
    ['missing.yaml', /no file exists/],
    ['nested', /directory/],
    ['huge.yaml', /over the 2097152-byte limit for a manifest/],
    ['', /empty/],
  ])('%s is refused with a tool error', async (path, message) => {
    for (const tool of ['lint_manifest', 'generate_fixtures', 'review_operation'])
      expect(toolErrorOf(await call(tool, { path })), tool).toMatch(message);
  });

  it('an absolute path inside the folder is read', async () => {
    expect(structured(await call('lint_manifest', { path: join(folder, 'docs-search.yaml') }))).toMatchObject({ errors: 0 });
  });
});

describe('lint_manifest', () => {
  it('a clean manifest by path: no finding', async () => {
    expect(structured(await call('lint_manifest', { path: 'docs-search.yaml' }))).toEqual({
      file: 'docs-search.yaml',
      errors: 0,
      warnings: 0,
      infos: 0,
      usable: true,
      findings: [],
    });
  });

  it("a flawed manifest's text: the finding with rule, line, column and fix", async () => {
    const result = structured(await call('lint_manifest', { manifest: FLAWED }));
    expect(result['findings']).toEqual([
      expect.objectContaining({
        ruleId: 'deadline-max-required',
        severity: 'error',
        line: 16,
        column: 5,
        fix: expect.stringMatching(/maxMs/),
      }),
    ]);
  });

  it('a malformed manifest: its problem at line and column, not an exception', async () => {
    const result = structured(await call('lint_manifest', { manifest: MALFORMED }));
    expect(result['usable']).toBe(false);
    expect(result['findings'][0]).toMatchObject({ severity: 'error', line: expect.any(Number), column: expect.any(Number) });
  });

  it.each([
    [{}, /exactly one of manifest .* and path/],
    [{ manifest: FLAWED, path: 'docs-search.yaml' }, /exactly one of/],
    [{ manifest: 42 }, /manifest is a string/],
  ])('bad arguments %j: a tool error saying what to do', async (args, message) => {
    expect(toolErrorOf(await call('lint_manifest', args))).toMatch(message);
  });
});

describe('review_operation', () => {
  it("one operation's YAML: its sections, its findings at the operation's own lines", async () => {
    const result = structured(
      await call('review_operation', { operationYaml: FLAWED_OPERATION, specVersion: '2026-07-28', transports: ['stdio'] }),
    );
    expect(result['operations'].map((one: { name: string }) => one.name)).toEqual(['export_report']);
    const [operation] = result['operations'];
    expect(operation.raceTables.map((table: { transport: string }) => table.transport)).toEqual(['stdio']);
    expect(operation.retry.classification).toEqual(expect.any(String));
    expect(operation.findings).toContainEqual(expect.objectContaining({ ruleId: 'deadline-max-required', line: 4, column: 5 }));
    expect(operation.verdict.productionReady).toBe(false);
  });

  it('a manifest and one operation: only that operation, progress per fixture', async () => {
    const called = await call('review_operation', { path: 'billing.yaml', operation: 'get_balance' });
    const result = structured(called);
    expect(result['operations'].map((one: { name: string }) => one.name)).toEqual(['get_balance']);
    expect(called.progress.length).toBe(result['operations'][0].fixtures.total);
    expect(called.progress.map((one) => one.done)).toEqual(called.progress.map((_, index) => index));
  });

  it('a malformed manifest: the problems at line and column', async () => {
    const result = structured(await call('review_operation', { manifest: MALFORMED }));
    expect(result['operations']).toEqual([]);
    expect(result['problems'][0]).toMatchObject({ severity: 'error', line: expect.any(Number) });
  });

  it.each([
    [{ path: 'billing.yaml', operation: 'nope' }, /no operation named "nope"; the manifest has charge_account, get_balance/],
    [{ operationYaml: FLAWED_OPERATION, path: 'billing.yaml' }, /not both/],
    [{ operationYaml: FLAWED_OPERATION, specVersion: '1999-01-01' }, /specVersion is one of/],
    [{ operationYaml: FLAWED_OPERATION, transports: ['carrier-pigeon'] }, /transports lists one or more of/],
    [{}, /or give operationYaml/],
  ])('bad arguments %j: a tool error', async (args, message) => {
    expect(toolErrorOf(await call('review_operation', args))).toMatch(message);
  });

  it('stops between fixtures once cancelled: rejects, having run only the fixtures before', async () => {
    const controller = new AbortController();
    const tool = mcpToolNamed('review_operation') as McpTool;
    let told = 0;
    const running = tool.run(
      { path: 'billing.yaml' },
      {
        workingFolder: folder,
        signal: controller.signal,
        progress: () => {
          if (++told === 3) controller.abort(new Error('cancelled by the test'));
        },
        otherCallsRunning: () => 0,
      },
    );
    await expect(running).rejects.toThrow('cancelled by the test');
    expect(told).toBe(3);
  });
});

describe('generate_fixtures', () => {
  it("one operation's fixtures", async () => {
    const result = structured(await call('generate_fixtures', { path: 'billing.yaml', operation: 'get_balance' }));
    expect(result['fixtures'].length).toBeGreaterThan(3);
    expect(new Set(result['fixtures'].map((fixture: { operation: string }) => fixture.operation))).toEqual(new Set(['get_balance']));
  });

  it('a malformed manifest: problems, no fixtures', async () => {
    const result = structured(await call('generate_fixtures', { manifest: MALFORMED }));
    expect(result['fixtures']).toEqual([]);
    expect(result['problems'].length).toBeGreaterThan(0);
  });

  it('an unknown operation: a tool error naming the ones there are', async () => {
    expect(toolErrorOf(await call('generate_fixtures', { path: 'billing.yaml', operation: 'x' }))).toMatch(
      /the manifest has charge_account/,
    );
  });
});

describe('explain_rule', () => {
  it("a rule's page", async () => {
    const result = structured(await call('explain_rule', { id: 'deadline-max-required' }));
    expect(result).toMatchObject({ id: 'deadline-max-required', kind: expect.any(String), severity: 'error' });
    expect(result['page']).toMatch(/deadline-max-required/);
  });

  it.each([
    [{ id: 'deadline-max' }, /no rule has the id "deadline-max": did you mean .*deadline-max-required/],
    [{ id: 'zzz' }, /no rule has the id "zzz"/],
    [{}, /give id/],
    [{ id: ['a'] }, /id is a string/],
  ])('%j: a tool error', async (args, message) => {
    expect(toolErrorOf(await call('explain_rule', args))).toMatch(message);
  });
});

describe('manifest_from_tools', () => {
  const TOOLS = {
    tools: [
      { name: 'search', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      { name: 'charge', inputSchema: { type: 'object', properties: { idempotencyKey: { type: 'string' } } } },
    ],
  };

  it.each([
    ['an object', TOOLS],
    ['its JSON text', JSON.stringify(TOOLS)],
    ['the tools array', TOOLS.tools],
  ])('from %s: a manifest with an operation per tool, which lints as a manifest', async (_, toolsList) => {
    const result = structured(await call('manifest_from_tools', { toolsList, serverName: 'shop' }));
    expect(result['tools']).toEqual(['search', 'charge']);
    const linted = structured(await call('lint_manifest', { manifest: result['manifest'] }));
    expect(linted['usable']).toBe(true);
    expect(linted['findings'].filter((finding: { ruleId: string }) => finding.ruleId === 'manifest-schema')).toEqual([]);
  });

  it.each([
    [{ toolsList: '{"tools": [' }, /toolsList is not JSON/],
    [{ toolsList: { tools: 'no' } }, /an object with a tools array/],
    [{ toolsList: [{ nameless: true }] }, /no entry of the tools array is a tool with a name/],
    [{ toolsList: TOOLS, transport: 'fax' }, /transport is one of/],
    [{}, /give toolsList/],
  ])('%j: a tool error', async (args, message) => {
    expect(toolErrorOf(await call('manifest_from_tools', args))).toMatch(message);
  });

  it('a tools/list text past the manifest bound: a tool error', async () => {
    const huge = ' '.repeat(2 * 1024 * 1024 + 1);
    expect(toolErrorOf(await call('manifest_from_tools', { toolsList: huge }))).toMatch(/toolsList is at most 2097152 characters/);
  });
});
