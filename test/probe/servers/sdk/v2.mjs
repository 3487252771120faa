// An MCP server built with the official TypeScript SDK v2 (@modelcontextprotocol/server), in a correct and
// several defective variants, so the probe can be tested against what the SDK itself does:
//   node v2.mjs <variant> stdio           serveStdio: 2026-07-28 (server/discover) or 2025-11-25 (initialize),
//                                         chosen by the client's opening message
//   node v2.mjs <variant> http <port>     createMcpHandler on 127.0.0.1:<port>/mcp (port 0 = any; prints
//                                         "listening <port>" when ready): 2026-07-28, and 2025-11-25 through the
//                                         SDK's default stateless legacy fallback (no sessions)
// Variants (what slow_job does once its request is cancelled):
//   correct                stops at once and sends nothing more
//   ignore-cancel          ignores the abort signal, works to the end and returns its result normally
//                          (prints "finished (after abort)" on stderr); the SDK drops that result
//   progress-after-cancel  keeps calling ctx.mcpReq.notify with progress for ~2 s, then stops (the SDK does not
//                          filter these; over HTTP they have no open stream to go to)
//   reply-to-cancel        answers the cancelled request with the error -32800: the SDK drops a thrown error of an
//                          aborted request, so the variant also writes it through the instance's transport
// A client's disconnect (closing the response stream) aborts the request over HTTP; over stdio
// notifications/cancelled does. See docs/sdk-behaviours.md.
// Tools: slow_job {steps=5, stepMs=200} (progress each step when asked), job_status {} → { active }.
import { createServer } from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const VARIANTS = ['correct', 'ignore-cancel', 'progress-after-cancel', 'reply-to-cancel'];
const [variant, mode, port] = process.argv.slice(2);
if (!VARIANTS.includes(variant) || !['stdio', 'http'].includes(mode)) {
  console.error(`usage: v2.mjs <${VARIANTS.join('|')}> stdio | http <port>`);
  process.exit(2);
}

/** slow_job runs whose loop has not exited yet (across every per-request instance of the process). */
let active = 0;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Resolves true after ms, or false at once when the signal aborts. */
const sleepUnlessAborted = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

function factory() {
  const server = new McpServer({ name: `sdk-v2-${variant}`, version: '2.0.0' });
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
      const signal = request.signal;
      const progress = (value) =>
        request
          .notify({ method: 'notifications/progress', params: { progressToken: token, progress: value, total: steps } })
          .catch((error) => console.error(`progress not sent: ${error.message}`));
      active++;
      try {
        for (let i = 1; i <= steps; i++) {
          if (variant === 'ignore-cancel') {
            await sleep(stepMs);
            if (token !== undefined && !signal.aborted) await progress(i);
            continue;
          }
          if (!(await sleepUnlessAborted(stepMs, signal))) {
            if (variant === 'progress-after-cancel') {
              for (let k = 1; k <= 10; k++) {
                await sleep(200);
                if (token !== undefined) await progress(i + k / 10);
              }
            } else if (variant === 'reply-to-cancel') {
              const transport = server.server.transport;
              if (transport === undefined) console.error('reply-to-cancel: the instance has no transport left');
              else
                await transport
                  .send(
                    { jsonrpc: '2.0', id: request.id, error: { code: -32800, message: 'Request cancelled' } },
                    { relatedRequestId: request.id },
                  )
                  .catch((error) => console.error(`reply-to-cancel: not sent: ${error.message}`));
            }
            throw Object.assign(new Error('Request cancelled'), { code: -32800 });
          }
          if (token !== undefined) await progress(i);
        }
        if (signal.aborted) console.error('finished (after abort)');
        return { content: [{ type: 'text', text: `done after ${steps} steps` }] };
      } finally {
        active--;
      }
    },
  );
  server.registerTool(
    'job_status',
    {
      description: 'How many slow_job runs are still working',
      inputSchema: z.object({}),
      outputSchema: z.object({ active: z.number() }),
      annotations: { readOnlyHint: true },
    },
    async () => {
      const status = { active };
      return { structuredContent: status, content: [{ type: 'text', text: JSON.stringify(status) }] };
    },
  );
  return server;
}

if (mode === 'stdio') {
  serveStdio(factory, { onerror: (error) => console.error(`sdk: ${error.message}`) });
} else {
  const handler = createMcpHandler(factory, { onerror: (error) => console.error(`sdk: ${error.message}`) });
  const http = createServer(async (req, res) => {
    if (new URL(req.url, 'http://127.0.0.1').pathname !== '/mcp') return res.writeHead(404).end();
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const abort = new AbortController();
    // The client closing its connection before the response ended is the 2026-07-28 cancellation.
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([name, value]) =>
        Array.isArray(value) ? value.map((one) => [name, one]) : [[name, value]],
      ),
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
      signal: abort.signal,
    });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) return res.end();
    const reader = response.body.getReader();
    res.on('close', () => reader.cancel().catch(() => {}));
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || res.destroyed) break;
        res.write(value);
      }
    } catch {
      // the client went away
    }
    res.end();
  });
  http.listen(Number(port ?? 0), '127.0.0.1', () => console.log(`listening ${http.address().port}`));
}
