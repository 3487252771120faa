// Real-client driver for `mcprely probe-client`: the official TypeScript SDK v1 (@modelcontextprotocol/sdk 1.x:
// Client with StreamableHTTPClientTransport or StdioClientTransport), used the way a host uses it. Options and output:
// ts-sdk-driver.mjs. The library's own: callTool(params, resultSchema, options); a timeout is McpError -32001
// (ErrorCode.RequestTimeout); it always offers its LATEST_PROTOCOL_VERSION (2025-11-25) and cannot choose another, so
// --protocol auto (its own negotiation, as shipped) is that same initialize; it keeps the version it settled to itself.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { runDriver } from './ts-sdk-driver.mjs';

await runDriver({
  name: 'ts-sdk-v1',
  protocols: '2025-11-25|auto',
  clientOptions: (protocol) => (protocol === undefined || protocol === '2025-11-25' || protocol === 'auto' ? {} : undefined),
  Client,
  StreamableHTTPClientTransport,
  StdioClientTransport,
  callTool: (client, params, options) => client.callTool(params, undefined, options),
  isTimeout: (error) => error?.code === ErrorCode.RequestTimeout,
  protocolOf: () => undefined,
});
