import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { readmeMcpConfig } from './mcp-server-harness.js';

/**
 * The README's MCP configuration lines work as written: the server they name, with `npx mcprely` resolved as npx
 * resolves it in a project that has mcprely (the package's bin), answers initialize and tools/list. The same lines
 * through npx itself and an SDK client: test/sdk/mcp-clients.test.ts.
 */
describe("the README's MCP configuration", () => {
  it('names npx mcprely mcp, which starts the server', { timeout: 20_000 }, async () => {
    const config = readmeMcpConfig();
    expect(config.command).toBe('npx');
    const [name, ...args] = config.args;
    const bin = (JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string> }).bin[name as string];
    expect(bin, `npx ${name} runs the package's bin of that name`).toBeDefined();
    const child = spawn(process.execPath, [bin as string, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'readme', version: '1' } };
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params })}\n`);
    expect(JSON.parse(String((await lines.next()).value))).toMatchObject({ result: { serverInfo: { name: 'mcprely' } } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    expect(JSON.parse(String((await lines.next()).value)).result.tools.map((tool: { name: string }) => tool.name)).toContain(
      'review_operation',
    );
    child.stdin.end();
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
  });
});
