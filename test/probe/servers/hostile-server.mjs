// MCP servers of known behaviour for the probe's tests, written by hand: one defect each, or none.
//   node hostile-server.mjs <defect> [--revision 2025-11-25|2026-07-28]              over stdio
//   node hostile-server.mjs <defect> --http <port> [--revision …]                    over Streamable HTTP
//     (prints "listening <port>" when ready; loopback only)
//     --require-header 'Name: value' (repeatable), --require-query name=value: answers 401 to a request without them
//     --set-cookie 'name=value': sets this cookie on every response (a server with a session in a cookie)
//     --echo-credentials: quotes the request's URL and headers in a 401 body and in initialize's instructions
// The revision decides the handshake (initialize, or server/discover) and, over HTTP, the cancellation
// (a POSTed notification, or closing the response stream). Without a defect the server is well-behaved:
// slow_job (read-only) sends progress 1..4 every 150 ms (--step-ms), then answers, and stops at once when cancelled.
//
// Defects:
//   response-after-cancel, progress-after-cancel   keeps answering / reporting after a cancellation, for 2 s
//   in-flight-progress          progress every 5 ms; stops 40 ms after a cancellation (legal: those cross the cancellation)
//   non-monotonic-progress      progress 1, 3, 2, 4
//   many-progress               6 000 legal progress notifications, then the response
//   string-id                   answers tools/call with its id as a string ("3" for 3)
//   double-response             answers tools/call twice
//   unknown-id-response         also sends a response to a request id the client never used
//   error-to-cancellation       answers a cancellation at once with an error (id null)
//   cancelled-error             answers a cancelled request with the error -32800 "Request cancelled", 5 ms after the cancellation
//   late-error-to-cancellation  answers a cancellation with an error 1.2 s later
//   stall                       sends one progress notification for tools/call, then nothing
//   never-answers               sends nothing at all for tools/call: no progress, no response, ever
//   paged-tools                 (no defect) lists its tools over two pages: a quick tool, then slow_job behind a cursor
//   crash                       exits with code 7 during tools/call
//   killed                      kills itself (SIGKILL) during tools/call
//   flood                       stdio: after the handshake, writes progress for an unknown token as fast as it can;
//                               HTTP: answers tools/call with an endless SSE stream of such progress
//   garbage-after-handshake     writes a line that is not JSON-RPC to stdout after tools/list (stdio)
//   late-error-to-cancellation and garbage-after-handshake are stdio-only: HTTP has no channel for them
//   destructive-first           lists purge_long_term_storage (destructive) first; calling it prints PURGED to stderr
//   no-safe-tools               lists only tools that are not annotated read-only
//   status-500, not-json, huge-body, huge-sse-line, no-headers   (HTTP) a broken answer to tools/call
//   cross-stream                (HTTP, 2026-07-28) writes a cancelled request's progress and response into the next stream
//   held-for-next-stream        (HTTP, 2026-07-28) keeps working after a closed stream, holds what it would have sent, and
//                               writes it into the next stream it opens later (it answers tools/list as an SSE stream)
//   missing-sse-headers         (HTTP) SSE without Cache-Control and X-Accel-Buffering
//   late-progress-after-response (stdio) one more progress notification 1.2 s after a call's response
//   drop-stream                 (HTTP) ends the first tools/call's SSE stream after its first progress, unanswered (the
//                               request is lost with it, and its work stopped); later calls are answered
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
const defect = args[0] ?? 'none';
const option = (name) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const revision = option('--revision') ?? '2025-11-25';
const httpPort = option('--http');
const every = (name) => args.flatMap((arg, at) => (arg === name ? [args[at + 1]] : []));
const requiredHeaders = every('--require-header').map((text) => {
  const colon = text.indexOf(':');
  return [text.slice(0, colon).trim().toLowerCase(), text.slice(colon + 1).trim()];
});
const requiredQuery = every('--require-query').map((text) => text.split('='));
const setCookie = option('--set-cookie');
const echoCredentials = args.includes('--echo-credentials');
/** The URL and headers of the latest HTTP request, for --echo-credentials. */
let latestRequest = '';
// How long each of slow_job's four steps takes (ms).
// A held-back stream needs a job of more than a second to be seen as one.
const stepMs = Number(option('--step-ms') ?? (defect === 'held-progress' ? 350 : 150));
const STATELESS = '2026-07-28';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false };
const SLOW_JOB = {
  name: 'slow_job',
  description: 'Runs a while, reporting progress',
  inputSchema: { type: 'object', properties: {} },
  annotations: READ_ONLY,
};
function toolList() {
  if (defect === 'destructive-first') {
    return [
      {
        name: 'purge_long_term_storage',
        description: 'Deletes long term storage',
        inputSchema: { type: 'object' },
        annotations: { destructiveHint: true },
      },
      { name: 'count_along_the_way', description: 'Counts things', inputSchema: { type: 'object' } },
      { ...SLOW_JOB, name: 'slow_report' },
    ];
  }
  if (defect === 'no-safe-tools')
    return [{ name: 'long_export', description: 'Exports everything, slowly', inputSchema: { type: 'object' } }];
  return [SLOW_JOB];
}

/** The state of one tools/call: who to write to, and whether it was cancelled. */
function startJob(message, direct, job) {
  // held-progress: a buffering layer on the way holds every progress notification until the answer goes out.
  const held = [];
  const send = (reply) => {
    if (defect !== 'held-progress') return direct(reply);
    if (reply.method === 'notifications/progress') return held.push(reply);
    for (const one of held.splice(0)) direct(one);
    return direct(reply);
  };
  const token = message.params?._meta?.progressToken;
  const progress = (value) =>
    token !== undefined &&
    send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: value, total: 4 } });
  const answer = () =>
    send({
      jsonrpc: '2.0',
      id: defect === 'string-id' ? String(message.id) : message.id,
      result: { content: [{ type: 'text', text: 'done' }] },
    });
  if (message.params?.name === 'purge_long_term_storage') process.stderr.write('PURGED\n');
  if (defect === 'stall') return progress(1);
  if (defect === 'never-answers') return;
  if (defect === 'crash' || defect === 'killed') {
    progress(1);
    setTimeout(() => (defect === 'crash' ? process.exit(7) : process.kill(process.pid, 'SIGKILL')), 100);
    return;
  }
  if (defect === 'many-progress') {
    for (let value = 1; value <= 6000; value++) progress(value);
    answer();
    return;
  }
  if (defect === 'in-flight-progress') {
    let value = 0;
    const timer = setInterval(() => {
      // It notices the cancellation at its next checkpoint, 40 ms later: what it sends until then crosses the cancellation.
      if (job.cancelled && Date.now() - job.cancelledAt > 40) return clearInterval(timer);
      progress(++value);
      if (value === 200) {
        clearInterval(timer);
        answer();
      }
    }, 5);
    return;
  }
  const values = defect === 'non-monotonic-progress' ? [1, 3, 2, 4] : [1, 2, 3, 4];
  values.forEach((value, index) => {
    setTimeout(
      () => {
        if (job.cancelled) return;
        progress(value);
        if (index === values.length - 1) {
          answer();
          if (defect === 'late-progress-after-response') setTimeout(() => progress(5), 1200);
          if (defect === 'double-response') answer();
          if (defect === 'unknown-id-response') send({ jsonrpc: '2.0', id: 999_999, result: {} });
        }
      },
      stepMs * (index + 1),
    );
  });
}

/** What a cancelled job still does, by defect: nothing, or 2 s of progress and answers (then `end`s its HTTP stream). */
function afterCancel(message, send, end = () => undefined) {
  // Answers the cancellation on the request itself, 5 ms after it: within any in-flight allowance, never excused by it.
  if (defect === 'cancelled-error')
    return setTimeout(() => send({ jsonrpc: '2.0', id: message.id, error: { code: -32800, message: 'Request cancelled' } }), 5);
  if (defect !== 'response-after-cancel' && defect !== 'progress-after-cancel') return;
  const token = message.params?._meta?.progressToken;
  let value = 10;
  const timer = setInterval(() => {
    if (defect === 'progress-after-cancel' && token !== undefined)
      send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: ++value } });
    if (defect === 'response-after-cancel')
      send({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'done anyway' }] } });
  }, 200);
  setTimeout(() => {
    clearInterval(timer);
    end();
  }, 2000);
}

/** Answers one message that is not tools/call or a cancellation; false when it is not one of those. */
function answerPlain(message, send) {
  const { id, method } = message;
  if (method === 'initialize') {
    send({
      jsonrpc: '2.0',
      id,
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: `hostile-${defect}`, version: '0' },
        ...(echoCredentials ? { instructions: `you sent ${latestRequest}` } : {}),
      },
    });
    return true;
  }
  if (method === 'server/discover') {
    if (revision === STATELESS)
      send({
        jsonrpc: '2.0',
        id,
        result: { supportedVersions: [STATELESS], capabilities: { tools: {} }, serverInfo: { name: `hostile-${defect}`, version: '0' } },
      });
    else send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
    return true;
  }
  if (method === 'tools/list' && defect === 'paged-tools') {
    const second = message.params?.cursor === 'page-2';
    const quick = { name: 'quick_look', description: 'Answers at once', inputSchema: { type: 'object' }, annotations: READ_ONLY };
    send({ jsonrpc: '2.0', id, result: second ? { tools: [SLOW_JOB] } : { tools: [quick], nextCursor: 'page-2' } });
    return true;
  }
  if (method === 'tools/list') {
    send({ jsonrpc: '2.0', id, result: { tools: toolList() } });
    if (defect === 'garbage-after-handshake') process.stdout.write('debug: listed the tools\n');
    return true;
  }
  if (method === 'notifications/initialized') return true;
  if (id !== undefined && method !== 'tools/call' && method !== 'notifications/cancelled') {
    send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no method ${method}` } });
    return true;
  }
  return false;
}

function answerCancellation(send) {
  const error = { jsonrpc: '2.0', id: null, error: { code: -32602, message: 'cannot cancel that' } };
  if (defect === 'error-to-cancellation') send(error);
  if (defect === 'late-error-to-cancellation') setTimeout(() => send(error), 1200);
}

if (httpPort === undefined) serveStdio();
else serveHttp(Number(httpPort));

function serveStdio() {
  const out = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
  const jobs = new Map();
  createInterface({ input: process.stdin }).on('line', (line) => {
    const message = JSON.parse(line);
    if (answerPlain(message, out)) {
      if (defect === 'flood' && message.method === 'tools/list') flood();
      return;
    }
    if (message.method === 'notifications/cancelled') {
      const job = jobs.get(message.params?.requestId);
      if (job !== undefined) {
        job.cancelled = true;
        job.cancelledAt = Date.now();
        afterCancel(job.message, out);
      }
      answerCancellation(out);
      return;
    }
    const job = { message, cancelled: false };
    jobs.set(message.id, job);
    startJob(message, out, job);
  });
}

function flood() {
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
}

function serveHttp(port) {
  const jobs = new Map();
  const openStreams = new Set();
  let dropped = false;
  /** What held-for-next-stream would have sent on streams that are closed. */
  const held = [];
  const sseHeaders =
    defect === 'missing-sse-headers'
      ? { 'Content-Type': 'text/event-stream' }
      : { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' };
  const server = createServer(async (req, res) => {
    const query = new URL(req.url ?? '/', 'http://server').searchParams;
    latestRequest = `${req.url} ${JSON.stringify(req.headers)}`;
    if (
      requiredHeaders.some(([name, value]) => req.headers[name] !== value) ||
      requiredQuery.some(([name, value]) => query.get(name) !== value)
    )
      return res.writeHead(401, { 'Content-Type': 'text/plain' }).end(echoCredentials ? `unauthorized: ${latestRequest}` : 'unauthorized');
    if (setCookie !== undefined) res.setHeader('Set-Cookie', `${setCookie}; HttpOnly`);
    if (req.method !== 'POST') return res.writeHead(revision === STATELESS ? 405 : 405).end();
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const message = JSON.parse(Buffer.concat(chunks).toString());
    const json = (reply) => res.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 's1' }).end(JSON.stringify(reply));
    if (message.id === undefined) {
      if (message.method === 'notifications/cancelled') {
        const job = jobs.get(message.params?.requestId);
        if (job !== undefined && revision !== STATELESS) {
          job.cancelled = true;
          job.cancelledAt = Date.now();
          afterCancel(job.message, job.send, job.end);
        }
        if (defect === 'error-to-cancellation')
          return res
            .writeHead(400, { 'Content-Type': 'application/json' })
            .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32602, message: 'cannot cancel that' } }));
      }
      return res.writeHead(202).end();
    }
    if (defect === 'held-for-next-stream' && held.length > 0) {
      // Everything held for closed requests goes out first, on this request's own stream.
      res.writeHead(200, sseHeaders);
      for (const reply of held.splice(0)) res.write(`data: ${JSON.stringify(reply)}\n\n`);
      if (message.method !== 'tools/call') return answerPlain(message, (reply) => res.end(`data: ${JSON.stringify(reply)}\n\n`));
    }
    if (message.method !== 'tools/call') return answerPlain(message, json);
    if (defect === 'status-500') return res.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom');
    if (defect === 'not-json') return res.writeHead(200, { 'Content-Type': 'application/json' }).end('this is not json');
    if (defect === 'no-headers') return; // accepts the request and says nothing, for ever
    if (defect === 'huge-body') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const block = 'x'.repeat(1024 * 1024);
      res.write('{"jsonrpc":"2.0","id":1,"result":"');
      for (let i = 0; i < 50 && !res.destroyed; i++) if (!res.write(block)) await new Promise((resolve) => res.once('drain', resolve));
      return res.end('"}');
    }
    if (defect === 'huge-sse-line') {
      res.writeHead(200, sseHeaders);
      const block = 'x'.repeat(1024 * 1024);
      res.write('data: ');
      for (let i = 0; i < 50 && !res.destroyed; i++) if (!res.write(block)) await new Promise((resolve) => res.once('drain', resolve));
      return res.end('\n\n');
    }
    if (!res.headersSent) res.writeHead(200, sseHeaders);
    res.flushHeaders();
    if (defect === 'flood') {
      const line = `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'x', progress: 1 } })}\n\n`;
      const burst = () => {
        let ok = true;
        for (let i = 0; i < 1000 && ok && !res.destroyed; i++) ok = res.write(line);
        if (res.destroyed) return;
        if (ok) setImmediate(burst);
        else res.once('drain', burst);
      };
      return burst();
    }
    const stream = { res, open: true };
    openStreams.add(stream);
    const job = { message, cancelled: false, send: undefined, end: undefined };
    job.end = () => {
      stream.open = false;
      openStreams.delete(stream);
      res.end();
    };
    job.send = (reply) => {
      // A cancelled request's messages go nowhere — unless the server writes them into another open stream.
      const target = stream.open ? stream : defect === 'cross-stream' ? [...openStreams].find((other) => other.open) : undefined;
      if (target === undefined && defect === 'held-for-next-stream') held.push(reply);
      if (target === undefined) return;
      target.res.write(`data: ${JSON.stringify(reply)}\n\n`);
      if (defect === 'drop-stream' && !dropped) {
        // The stream breaks after the first message: the request is lost with it, and the server stops its work.
        dropped = true;
        job.cancelled = true;
        stream.open = false;
        openStreams.delete(stream);
        res.end();
        return;
      }
      // The stream ends after the response, once this turn is over (a second response or a stray written in it still goes out);
      // response-after-cancel keeps it open while it goes on answering a cancelled request (2 s), as over stdio.
      const answersOn = defect === 'response-after-cancel' && job.cancelled;
      if (reply.result !== undefined && target === stream && !stream.ending && !answersOn) {
        stream.ending = true;
        setImmediate(() => {
          stream.open = false;
          openStreams.delete(stream);
          res.end();
        });
      }
    };
    jobs.set(message.id, job);
    res.on('close', () => {
      stream.open = false;
      openStreams.delete(stream);
      // On the stateless revision a closed stream is the cancellation; the cross-stream server keeps working.
      if (revision === STATELESS && defect !== 'cross-stream' && defect !== 'held-for-next-stream' && !job.cancelled) {
        job.cancelled = true;
        job.cancelledAt = Date.now();
      }
    });
    startJob(message, job.send, job);
  });
  server.listen(port, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
}
