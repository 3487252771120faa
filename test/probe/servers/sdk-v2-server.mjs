// A well-behaved MCP server for 2026-07-28 built with the official v2 SDK (createMcpHandler), over Streamable
// HTTP on loopback: node sdk-v2-server.mjs <port>  (prints "listening <port>" when ready). A client's
// disconnect aborts the request (the 2026-07-28 cancellation); slow_job stops at once and sends nothing more.
import { createServer } from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';

function factory() {
  const server = new McpServer({ name: 'well-behaved-v2', version: '2.0.0' });
  server.registerTool(
    'slow_job',
    {
      description: 'Runs for steps × stepMs, reporting progress',
      inputSchema: z.object({ steps: z.number().default(5), stepMs: z.number().default(200) }),
      annotations: { readOnlyHint: true },
    },
    async ({ steps, stepMs }, ctx) => {
      const request = ctx.mcpReq;
      const token = request._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, stepMs);
          request.signal.addEventListener(
            'abort',
            () => {
              clearTimeout(timer);
              reject(new Error('cancelled'));
            },
            { once: true },
          );
        });
        if (token !== undefined)
          await request.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
      }
      return { content: [{ type: 'text', text: `done after ${steps} steps` }] };
    },
  );
  return server;
}

const handler = createMcpHandler(factory);
const http = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  const request = new Request(`http://127.0.0.1${req.url}`, {
    method: req.method,
    headers: req.headers,
    body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
    signal: abort.signal,
  });
  const response = await handler.fetch(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) return res.end();
  try {
    for await (const chunk of response.body) if (!res.destroyed) res.write(chunk);
  } catch {
    // the client went away
  }
  res.end();
});
http.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => console.log(`listening ${http.address().port}`));
