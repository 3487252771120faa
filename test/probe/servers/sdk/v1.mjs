// An MCP server (2025-11-25) built with the official TypeScript SDK 1.x (@modelcontextprotocol/sdk), in a
// correct and several defective variants, so the probe can be tested against what the SDK itself does:
//   node v1.mjs <variant> stdio
//   node v1.mjs <variant> http <port>     Streamable HTTP on 127.0.0.1:<port>/mcp, stateful sessions (port 0 = any;
//                                         prints "listening <port>" when ready)
// Variants (what slow_job does once its request is cancelled):
//   correct                stops at once and sends nothing more
//   ignore-cancel          ignores the abort signal, works to the end and returns its result normally
//                          (prints "finished (after abort)" on stderr); the SDK drops that result (docs/sdk-behaviours.md
//                          v1-suppresses-aborted-response)
//   progress-after-cancel  keeps calling extra.sendNotification with progress for ~2 s, then stops; the SDK drops
//                          those notifications (v1-drops-progress-after-abort)
//   progress-after-cancel-raw  the same through server.server.notification(…, { relatedRequestId }), which the SDK
//                          does not filter: the progress reaches the wire
//   reply-to-cancel        answers the cancelled request with the error -32800: the SDK drops a thrown error of an
//                          aborted request, so the variant writes it through the transport itself
// Tools: slow_job {steps=5, stepMs=200} (progress each step when asked), job_status {} → { active }.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const VARIANTS = ['correct', 'ignore-cancel', 'progress-after-cancel', 'progress-after-cancel-raw', 'reply-to-cancel'];
const [variant, mode, port] = process.argv.slice(2);
if (!VARIANTS.includes(variant) || !['stdio', 'http'].includes(mode)) {
  console.error(`usage: v1.mjs <${VARIANTS.join('|')}> stdio | http <port>`);
  process.exit(2);
}

/** slow_job runs whose loop has not exited yet (across every session of the process). */
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

function build() {
  const server = new McpServer({ name: `sdk-v1-${variant}`, version: '1.0.0' });
  const progress = (extra, token, value, total) => {
    const notification = { method: 'notifications/progress', params: { progressToken: token, progress: value, total } };
    if (variant === 'progress-after-cancel-raw' && extra.signal.aborted)
      return server.server.notification(notification, { relatedRequestId: extra.requestId });
    return extra.sendNotification(notification);
  };
  server.registerTool(
    'slow_job',
    {
      description: 'Runs for steps × stepMs, reporting progress',
      inputSchema: { steps: z.number().default(5), stepMs: z.number().default(200) },
      annotations: { readOnlyHint: true },
    },
    async ({ steps, stepMs }, extra) => {
      const token = extra._meta?.progressToken;
      const signal = extra.signal;
      active++;
      try {
        for (let i = 1; i <= steps; i++) {
          if (variant === 'ignore-cancel') {
            await sleep(stepMs);
            if (token !== undefined && !signal.aborted) await progress(extra, token, i, steps);
            continue;
          }
          if (!(await sleepUnlessAborted(stepMs, signal))) {
            if (variant === 'progress-after-cancel' || variant === 'progress-after-cancel-raw') {
              for (let k = 1; k <= 10; k++) {
                await sleep(200);
                if (token !== undefined) await progress(extra, token, i + k / 10, steps);
              }
            } else if (variant === 'reply-to-cancel') {
              await server.server.transport?.send(
                { jsonrpc: '2.0', id: extra.requestId, error: { code: -32800, message: 'Request cancelled' } },
                { relatedRequestId: extra.requestId },
              );
            }
            throw Object.assign(new Error('Request cancelled'), { code: -32800 });
          }
          if (token !== undefined) await progress(extra, token, i, steps);
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
      inputSchema: {},
      outputSchema: { active: z.number() },
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
  await build().connect(new StdioServerTransport());
} else {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    if (new URL(req.url, 'http://127.0.0.1').pathname !== '/mcp') return res.writeHead(404).end();
    const chunks = [];
    try {
      for await (const chunk of req) chunks.push(chunk);
    } catch {
      return; // the client left mid-body (an aborted request must not end the server: scripts/listeners-hostile.mjs)
    }
    let body;
    try {
      body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    } catch {
      return res.writeHead(400).end();
    }
    const id = req.headers['mcp-session-id'];
    let transport = id === undefined ? undefined : sessions.get(id);
    if (transport === undefined) {
      if (id !== undefined) return res.writeHead(404).end(); // an unknown or ended session
      if (req.method !== 'POST' || body?.method !== 'initialize') return res.writeHead(400).end();
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      await build().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  http.listen(Number(port ?? 0), '127.0.0.1', () => console.log(`listening ${http.address().port}`));
}
