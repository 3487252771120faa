// A task server of known behaviour for the tasks check, written by hand: one defect each, or none.
//   node task-server.mjs <defect> [--revision 2025-11-25|2026-07-28]                 over stdio
//   node task-server.mjs <defect> --http <port> [--revision …]                       over Streamable HTTP
//     (prints "listening <port>" when ready; loopback only)
// slow_task (read-only) runs 1.2 s. On 2025-11-25 it says execution.taskSupport: required and runs as a task when
// asked with params.task (progress every 300 ms on the request's token while the task works); on 2026-07-28 the
// server lists the tasks extension and creates a task whenever the request declares it (else it answers plainly,
// with progress). Tasks live in one store every connection reads. tasks/cancel moves a task to cancelled before
// answering (2025-11-25) or acknowledges and cancels at the next checkpoint, 100 ms later (2026-07-28).
//
// Defects:
//   completes-after-cancel       tasks/cancel answers cancelled, but the work goes on and the task ends completed
//                                (2026-07-28: acknowledged, the work goes on and ends completed, which that revision allows)
//   cancel-not-terminal          (2025-11-25) tasks/cancel answers status working; the task is cancelled 100 ms later
//   cancel-via-notification-only tasks/cancel is an unknown method (-32601); only notifications/cancelled stops work
//   forgets-on-disconnect        tasks belong to the connection that made them: a new session (2025-11-25) or a
//                                fresh client's server/discover (2026-07-28) does not find them
//   cancel-terminal-accepted     (2025-11-25) tasks/cancel of a terminal task answers with the task, not -32602
//   progress-after-terminal      (2025-11-25) progress once more, 400 ms after the task completed
//   never-ends                   (2026-07-28) a plain call gets nothing at all, ever; a task stays working until cancelled
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
const STATELESS = '2026-07-28';
const EXTENSION = 'io.modelcontextprotocol/tasks';
const WORK_MS = 1200;
const STEP_MS = 300;
const POLL_MS = 150;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

const TOOL = {
  name: 'slow_task',
  description: 'Runs a while, as a task',
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: true, destructiveHint: false },
  ...(revision === STATELESS ? {} : { execution: { taskSupport: 'required' } }),
};

/** Every task, by scope (one scope unless tasks are forgotten on disconnect), then id. */
const scopes = new Map();
let nextTask = 1;
let nextSession = 1;
const storeOf = (scope) => {
  const key = defect === 'forgets-on-disconnect' ? scope : 'all';
  if (!scopes.has(key)) scopes.set(key, new Map());
  return scopes.get(key);
};

function wireTask(task) {
  const now = new Date().toISOString();
  const common = { taskId: task.id, status: task.status, createdAt: task.createdAt, lastUpdatedAt: now };
  if (revision !== STATELESS) return { ...common, ttl: 60000, pollInterval: POLL_MS };
  return {
    ...common,
    ttlMs: 60000,
    pollIntervalMs: POLL_MS,
    ...(task.status === 'completed' ? { result: task.result } : {}),
  };
}

function setStatus(task, status) {
  if (TERMINAL.has(task.status) && defect !== 'completes-after-cancel') return;
  task.status = status;
  if (TERMINAL.has(status)) for (const waiter of task.waiters.splice(0)) waiter();
}

/** Starts a task's work: progress on the creating request's token (2025-11-25) until it ends. */
function startTask(message, send, scope) {
  const id = `task-${nextTask++}`;
  const token = message.params?._meta?.progressToken;
  const task = { id, status: 'working', createdAt: new Date().toISOString(), waiters: [], timers: [], result: undefined };
  storeOf(scope).set(id, task);
  let step = 0;
  const progress = () => {
    if (revision === STATELESS || token === undefined) return;
    send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: ++step, total: 4 } });
  };
  const tick = setInterval(() => {
    if (task.status === 'working' || (defect === 'completes-after-cancel' && !task.done)) progress();
  }, STEP_MS);
  task.timers.push(tick);
  task.timers.push(
    setTimeout(() => {
      if (defect === 'never-ends') return;
      clearInterval(tick);
      task.done = true;
      if (task.status !== 'working' && defect !== 'completes-after-cancel') return;
      task.result = { content: [{ type: 'text', text: 'done' }] };
      setStatus(task, 'completed');
      if (defect === 'progress-after-terminal') setTimeout(progress, 400);
    }, WORK_MS),
  );
  task.stop = () => {
    if (defect === 'completes-after-cancel') return;
    for (const timer of task.timers) clearTimeout(timer);
    clearInterval(tick);
  };
  const seed = wireTask(task);
  return revision === STATELESS ? { resultType: 'task', ...seed } : { task: seed };
}

/** A plain tools/call (2026-07-28 without the extension): progress, then the result; stops when cancelled. */
function plainCall(message, send, job) {
  if (defect === 'never-ends') return;
  const token = message.params?._meta?.progressToken;
  let step = 0;
  const tick = setInterval(() => {
    if (job.cancelled) return clearInterval(tick);
    if (token !== undefined)
      send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: ++step, total: 4 } });
    if (step >= 4) {
      clearInterval(tick);
      send({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', content: [{ type: 'text', text: 'done' }] } });
    }
  }, STEP_MS);
}

const error = (id, code, text) => ({ jsonrpc: '2.0', id, error: { code, message: text } });
const reply = (id, result) => ({ jsonrpc: '2.0', id, result: revision === STATELESS ? { resultType: 'complete', ...result } : result });

/** Answers one request; returns a promise for requests that wait (tasks/result), or 'plain' for a plain tools/call. */
async function answer(message, send, scope) {
  const { id, method, params } = message;
  if (method === 'initialize')
    return reply(id, {
      protocolVersion: '2025-11-25',
      capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      serverInfo: { name: `task-${defect}`, version: '0' },
    });
  if (method === 'server/discover') {
    if (revision !== STATELESS) return error(id, -32601, 'Method not found');
    if (defect === 'forgets-on-disconnect') scopes.clear();
    return reply(id, {
      supportedVersions: [STATELESS],
      capabilities: { tools: {}, extensions: { [EXTENSION]: {} } },
      serverInfo: { name: `task-${defect}`, version: '0' },
    });
  }
  if (method === 'tools/list') return reply(id, { tools: [TOOL] });
  if (method === 'tools/call') {
    const asked =
      revision === STATELESS
        ? params?._meta?.['io.modelcontextprotocol/clientCapabilities']?.extensions?.[EXTENSION] !== undefined
        : params?.task !== undefined;
    if (asked) return reply(id, startTask(message, send, scope));
    if (revision !== STATELESS) return error(id, -32601, 'slow_task requires task augmentation');
    return 'plain';
  }
  const task = typeof params?.taskId === 'string' ? storeOf(scope).get(params.taskId) : undefined;
  if (method === 'tasks/get') return task === undefined ? error(id, -32602, 'Task not found') : reply(id, wireTask(task));
  if (method === 'tasks/result' && revision !== STATELESS) {
    if (task === undefined) return error(id, -32602, 'Task not found');
    if (!TERMINAL.has(task.status)) await new Promise((resolve) => task.waiters.push(resolve));
    return task.status === 'completed' ? reply(id, task.result) : error(id, -32603, `task ${task.status}`);
  }
  if (method === 'tasks/cancel') {
    if (defect === 'cancel-via-notification-only') return error(id, -32601, 'Method not found: tasks/cancel');
    if (task === undefined) return error(id, -32602, 'Task not found');
    if (TERMINAL.has(task.status) && defect !== 'completes-after-cancel') {
      if (defect === 'cancel-terminal-accepted') return reply(id, wireTask(task));
      return error(id, -32602, `Cannot cancel task in terminal status: ${task.status}`);
    }
    // Eventually consistent: acknowledged now; a server whose work goes on lets it end completed.
    if (revision === STATELESS && defect === 'completes-after-cancel') return reply(id, {});
    if (revision === STATELESS || defect === 'cancel-not-terminal') {
      const answered = wireTask(task);
      setTimeout(() => {
        task.stop();
        setStatus(task, 'cancelled');
      }, 100);
      return revision === STATELESS ? reply(id, {}) : reply(id, answered);
    }
    task.stop();
    setStatus(task, 'cancelled');
    return reply(id, wireTask(task));
  }
  if (id !== undefined) return error(id, -32601, `no method ${method}`);
  return undefined;
}

if (httpPort === undefined) serveStdio();
else serveHttp(Number(httpPort));

function serveStdio() {
  const out = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
  const jobs = new Map();
  createInterface({ input: process.stdin }).on('line', async (line) => {
    const message = JSON.parse(line);
    if (message.method === 'notifications/cancelled') {
      const job = jobs.get(message.params?.requestId);
      if (job !== undefined) job.cancelled = true;
      return;
    }
    if (message.id === undefined) return;
    const answered = await answer(message, out, 'stdio');
    if (answered === 'plain') {
      const job = { cancelled: false };
      jobs.set(message.id, job);
      plainCall(message, out, job);
    } else if (answered !== undefined) out(answered);
  });
}

function serveHttp(port) {
  const jobs = new Map();
  const server = createServer(async (req, res) => {
    if (req.method === 'DELETE') return res.writeHead(200).end();
    if (req.method !== 'POST') return res.writeHead(405).end();
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const message = JSON.parse(Buffer.concat(chunks).toString());
    let session = req.headers['mcp-session-id'];
    if (message.method === 'initialize') session = `s${nextSession++}`;
    const headers = revision === STATELESS || session === undefined ? {} : { 'Mcp-Session-Id': session };
    if (message.id === undefined) {
      if (message.method === 'notifications/cancelled') {
        const job = jobs.get(message.params?.requestId);
        if (job !== undefined) job.cancelled = true;
      }
      return res.writeHead(202).end();
    }
    // An SSE stream for tools/call (progress may come on it), JSON for the rest.
    if (message.method === 'tools/call') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
      res.flushHeaders();
      const stream = { open: true };
      const send = (sent) => {
        if (!stream.open) return;
        res.write(`data: ${JSON.stringify(sent)}\n\n`);
        if (sent.id === message.id && (sent.result !== undefined || sent.error !== undefined) && revision === STATELESS) {
          stream.open = false;
          res.end();
        }
      };
      const job = { cancelled: false };
      res.on('close', () => {
        stream.open = false;
        if (revision === STATELESS) job.cancelled = true;
      });
      const answered = await answer(message, send, session ?? 'http');
      if (answered === 'plain') {
        jobs.set(message.id, job);
        plainCall(message, send, job);
      } else if (answered !== undefined) {
        send(answered);
        // On 2025-11-25 the stream stays open for the task's progress until the task ends.
        if (revision !== STATELESS) {
          const task = storeOf(session ?? 'http').get(answered.result?.task?.taskId);
          const end = () => {
            stream.open = false;
            res.end();
          };
          if (task === undefined) end();
          else setTimeout(end, WORK_MS + 600);
        }
      }
      return;
    }
    const answered = await answer(message, () => {}, session ?? 'http');
    res.writeHead(200, { ...headers, 'Content-Type': 'application/json' }).end(JSON.stringify(answered));
  });
  server.listen(port, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
}
