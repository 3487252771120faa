// Deliberately broken MCP servers for the probe's tests, written by hand so each breaks exactly one rule.
//   node broken-server.mjs <defect>                 over stdio
//   node broken-server.mjs missing-sse-headers <port>  over Streamable HTTP (loopback)
// Defects: response-after-cancel, progress-after-cancel, non-monotonic-progress, error-to-cancellation,
// missing-sse-headers, flood, stall, garbage, early-exit.
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

const defect = process.argv[2];
const TOOL = { name: 'slow_job', description: 'slow', inputSchema: { type: 'object', properties: {} } };

/** Handles one request; `send` writes a message back; returns nothing. */
function handle(message, send) {
  const { id, method, params } = message;
  if (method === 'initialize')
    return send({
      jsonrpc: '2.0',
      id,
      result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: `broken-${defect}`, version: '0' } },
    });
  if (method === 'tools/list') return send({ jsonrpc: '2.0', id, result: { tools: [TOOL] } });
  if (method === 'notifications/cancelled') {
    cancelled.add(params?.requestId);
    if (defect === 'error-to-cancellation') send({ jsonrpc: '2.0', id: null, error: { code: -32602, message: 'cannot cancel that' } });
    return;
  }
  if (method !== 'tools/call') {
    if (id !== undefined) send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no method ${method}` } });
    return;
  }
  {
    if (defect === 'stall') return; // never answers
    const token = params?._meta?.progressToken;
    const values = defect === 'non-monotonic-progress' ? [1, 3, 2, 4] : [1, 2, 3, 4];
    values.forEach((value, index) => {
      setTimeout(
        () => {
          const stopped = cancelled.has(id);
          if (stopped && defect !== 'progress-after-cancel' && defect !== 'response-after-cancel') return;
          if (token !== undefined && !(stopped && defect === 'response-after-cancel'))
            send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: value, total: 4 } });
          if (index === values.length - 1 && !(stopped && defect === 'progress-after-cancel'))
            send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'done' }] } });
        },
        150 * (index + 1),
      );
    });
  }
}

const cancelled = new Set();

if (defect === 'missing-sse-headers') {
  const http = createServer(async (req, res) => {
    if (req.method !== 'POST') return res.writeHead(405).end();
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const message = JSON.parse(Buffer.concat(chunks).toString());
    if (message.id === undefined) {
      handle(message, () => undefined);
      return res.writeHead(202).end();
    }
    if (message.method !== 'tools/call')
      return handle(message, (reply) =>
        res.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 's1' }).end(JSON.stringify(reply)),
      );
    // An SSE stream without Cache-Control or X-Accel-Buffering: a proxy may hold every event.
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    handle(message, (reply) => {
      if (!res.destroyed) res.write(`data: ${JSON.stringify(reply)}\n\n`);
      if (reply.result !== undefined) res.end();
    });
  });
  http.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => console.log(`listening ${http.address().port}`));
} else {
  const out = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
  if (defect === 'flood') {
    // Answers initialize, then writes progress as fast as the pipe takes it, for ever.
    createInterface({ input: process.stdin }).once('line', (line) => {
      handle(JSON.parse(line), out);
      const burst = () => {
        let ok = true;
        for (let i = 0; i < 1000 && ok; i++)
          ok = process.stdout.write(
            `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'x', progress: i } })}\n`,
          );
        if (ok) setImmediate(burst);
        else process.stdout.once('drain', burst);
      };
      burst();
    });
  } else {
    createInterface({ input: process.stdin }).on('line', (line) => {
      const message = JSON.parse(line);
      if (defect === 'garbage' && message.method === 'tools/list') {
        process.stdout.write('this is not JSON\n{"half": \n');
        return;
      }
      if (defect === 'early-exit' && message.method === 'tools/call') process.exit(3);
      handle(message, out);
    });
  }
}
