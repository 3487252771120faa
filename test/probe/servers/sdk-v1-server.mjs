// A well-behaved MCP server (2025-11-25) built with the official SDK 1.x, over stdio or Streamable HTTP:
//   node sdk-v1-server.mjs stdio
//   node sdk-v1-server.mjs http <port>        (prints "listening <port>" when ready; loopback only)
// Tools: slow_job (progress every stepMs; stops at once when cancelled), charge (an idempotency key bound to
// its arguments: the same key replays, another argument with the same key is refused).
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const ledger = new Map();

function build() {
  const server = new McpServer({ name: 'well-behaved-v1', version: '1.0.0' });
  server.registerTool(
    'slow_job',
    {
      description: 'Runs for steps × stepMs, reporting progress',
      inputSchema: { steps: z.number().default(5), stepMs: z.number().default(200) },
      annotations: { readOnlyHint: true },
    },
    async ({ steps, stepMs }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, stepMs);
          extra.signal.addEventListener(
            'abort',
            () => {
              clearTimeout(timer);
              reject(new Error('cancelled'));
            },
            { once: true },
          );
        });
        if (extra.signal.aborted) throw new Error('cancelled');
        if (token !== undefined)
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
      }
      return { content: [{ type: 'text', text: `done after ${steps} steps` }] };
    },
  );
  server.registerTool(
    'charge',
    {
      description: 'Charges an account once per idempotency key',
      inputSchema: { account: z.string(), cents: z.number(), idempotencyKey: z.string() },
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    async ({ account, cents, idempotencyKey }) => {
      const fingerprint = JSON.stringify([account, cents]);
      const stored = ledger.get(idempotencyKey);
      if (stored !== undefined && stored.fingerprint !== fingerprint)
        return { isError: true, content: [{ type: 'text', text: 'idempotency key was reused with different arguments' }] };
      if (stored === undefined) ledger.set(idempotencyKey, { fingerprint, receipt: `charge-${String(ledger.size + 1).padStart(3, '0')}` });
      return { content: [{ type: 'text', text: `charged ${cents} to ${account}: ${ledger.get(idempotencyKey).receipt}` }] };
    },
  );
  return server;
}

const [mode, port] = process.argv.slice(2);
if (mode === 'stdio') {
  await build().connect(new StdioServerTransport());
} else {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = id === undefined ? undefined : sessions.get(id);
    if (transport === undefined) {
      if (req.method !== 'POST' || body?.method !== 'initialize') {
        res.writeHead(400).end();
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      await build().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  http.listen(Number(port), '127.0.0.1', () => console.log(`listening ${http.address().port}`));
}
