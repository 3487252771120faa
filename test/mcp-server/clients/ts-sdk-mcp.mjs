// Drives mcprely mcp with an official TypeScript SDK client, as an assistant's host would: connect, tools/list, then
// each call of calls.json (progress asked for where it says so). Prints one JSON object: the revision the client
// settled (v2), the tools listed, and each call's result with how much progress it reported.
// Usage: node ts-sdk-mcp.mjs v1|v2 2025-11-25|2026-07-28 (<url> | --stdio <program> [args…])
import { readFileSync } from 'node:fs';

const [sdk, protocol, ...target] = process.argv.slice(2);
const library =
  sdk === 'v1'
    ? {
        ...(await import('@modelcontextprotocol/sdk/client/index.js')),
        ...(await import('@modelcontextprotocol/sdk/client/stdio.js')),
        ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')),
      }
    : { ...(await import('@modelcontextprotocol/client')), ...(await import('@modelcontextprotocol/client/stdio')) };
const options = sdk === 'v2' ? { versionNegotiation: { mode: protocol === '2026-07-28' ? { pin: protocol } : 'legacy' } } : {};
const transport =
  target[0] === '--stdio'
    ? new library.StdioClientTransport({ command: target[1], args: target.slice(2), env: process.env })
    : new library.StreamableHTTPClientTransport(new URL(target[0]));
const client = new library.Client({ name: `mcprely-mcp-test-${sdk}`, version: '1.0.0' }, options);
await client.connect(transport);
const listed = await client.listTools();
const calls = JSON.parse(readFileSync(new URL('./calls.json', import.meta.url), 'utf8'));
const results = [];
for (const call of calls) {
  let progress = 0;
  const callOptions = call.progress ? { onprogress: () => progress++ } : {};
  const params = { name: call.name, arguments: call.arguments };
  try {
    const result = sdk === 'v1' ? await client.callTool(params, undefined, callOptions) : await client.callTool(params, callOptions);
    results.push({ name: call.name, result, progress });
  } catch (error) {
    results.push({ name: call.name, error: String(error?.message ?? error), progress });
  }
}
const settled = sdk === 'v2' ? client.getNegotiatedProtocolVersion() : undefined;
process.stdout.write(`${JSON.stringify({ protocol: settled, tools: listed.tools, results })}\n`);
await client.close();
