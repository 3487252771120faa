// Real-client driver for `mcprely probe-client`: the official TypeScript SDK v2 (@modelcontextprotocol/client 2.x:
// Client with StreamableHTTPClientTransport or StdioClientTransport), used the way a host uses it. Options and output:
// ts-sdk-driver.mjs. The library's own: callTool(params, options); a timeout is SdkError REQUEST_TIMEOUT; --protocol
// picks ClientOptions.versionNegotiation: 2025-11-25 → mode 'legacy' (the default: `initialize`), 2026-07-28 →
// { pin: '2026-07-28' } (a `server/discover` probe, no fallback; over stdio the SDK runs the probe on a second,
// short-lived spawn of the same command), auto → 'auto' (the probe, then `initialize` as a fallback; the library's
// default is still 'legacy').
import { Client, SdkErrorCode, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { runDriver } from './ts-sdk-driver.mjs';

const MODES = { '2025-11-25': 'legacy', '2026-07-28': { pin: '2026-07-28' }, auto: 'auto' };

await runDriver({
  name: 'ts-sdk-v2',
  protocols: '2025-11-25|2026-07-28|auto',
  clientOptions: (protocol) =>
    protocol === undefined ? {} : protocol in MODES ? { versionNegotiation: { mode: MODES[protocol] } } : undefined,
  Client,
  StreamableHTTPClientTransport,
  StdioClientTransport,
  callTool: (client, params, options) => client.callTool(params, options),
  isTimeout: (error) => error?.code === SdkErrorCode.RequestTimeout,
  protocolOf: (client) => client.getNegotiatedProtocolVersion(),
});
