// The clients of scripts/listeners-hostile.mjs and bench/proxy-load.mjs: the listener as a child process, its memory
// from /proc, raw bytes over node:net (what a hostile client sends), and a minimal well-behaved Streamable HTTP
// session over node:http whose every message has an id of its own, so that a trace can be searched for it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';

/** `node <args>` started, resolved with the first match of `pattern` in its output (stdout or stderr). */
export function started(args, pattern, options = {}) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let output = '';
  let listening = false;
  return new Promise((resolve, reject) => {
    const read = (chunk) => {
      output += chunk;
      // Once it listens only the last of its output is kept, unread: a slow reader of a pipe would slow the listener.
      if (listening) {
        if (output.length > 200_000) output = output.slice(-100_000);
        return;
      }
      const found = pattern.exec(output);
      if (found === null) return;
      listening = true;
      resolve({ child, found: found[1], output: () => output });
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', read);
    child.on('close', (code) => reject(new Error(`${args.join(' ')} exited ${code} before it listened: ${output}`)));
  });
}

/** A field of /proc/<pid>/status in MB (VmHWM: the peak resident memory; VmRSS: now); undefined once the process is gone. */
export function procMb(pid, field) {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

export function alive(child) {
  if (child.exitCode !== null || child.signalCode !== null) return false;
  try {
    process.kill(child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Raw bytes to `port`: `parts` written in turn (`gapMs` apart), then the socket is half-open until the server answers
 * and closes, `waitMs` passes, or `abortAfterMs` destroys it (an abrupt disconnect). Resolves with the status of the
 * first response line (undefined: none), whether the server closed the connection, and when (ms after connecting).
 */
export function raw(port, parts, { gapMs = 0, waitMs = 5000, abortAfterMs, reset = false } = {}) {
  return new Promise((resolve) => {
    const opened = performance.now();
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let done = false;
    let writer;
    const finish = (closedByServer) => {
      if (done) return;
      done = true;
      clearTimeout(writer);
      clearTimeout(waiting);
      socket.destroy();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      resolve({ status: status === undefined ? undefined : Number(status), closedByServer, afterMs: performance.now() - opened, received });
    };
    const waiting = setTimeout(() => finish(false), waitMs);
    socket.on('data', (chunk) => {
      if (received.length < 65536) received += chunk.toString('latin1');
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(!done && received !== '' ? true : !done));
    socket.on('error', () => finish(true));
    socket.on('connect', () => {
      let index = 0;
      const next = () => {
        if (done || index >= parts.length) return;
        socket.write(parts[index++]);
        if (gapMs === 0) next();
        else writer = setTimeout(next, gapMs);
      };
      next();
      if (abortAfterMs !== undefined)
        setTimeout(() => {
          if (done) return;
          done = true;
          clearTimeout(writer);
          clearTimeout(waiting);
          if (reset) socket.resetAndDestroy();
          else socket.destroy();
          resolve({ status: undefined, closedByServer: false, afterMs: performance.now() - opened, received, aborted: true });
        }, abortAfterMs);
    });
  });
}

/**
 * An HTTP/1.1 request's bytes; `body` sets Content-Length unless a header says otherwise. `Connection: close` unless
 * told: the server closes the connection once it answered, so that `raw` knows the response is whole.
 */
export function requestBytes(method, path, headers, body = '') {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1'];
  const all = { Connection: 'close', ...headers };
  if (body !== '' && !Object.keys(all).some((name) => /^(content-length|transfer-encoding)$/i.test(name)))
    all['Content-Length'] = String(Buffer.byteLength(body));
  for (const [name, value] of Object.entries(all)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** The JSON-RPC messages of a response body: a JSON body, or the data of each SSE event. */
function messagesOf(type, text) {
  if (text.trim() === '') return [];
  if (!type.startsWith('text/event-stream')) return [JSON.parse(text)];
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data));
}

/** One POST (or GET/DELETE) of a session; resolves with the status, the session id header and the messages. */
export function exchange(url, { method = 'POST', message, sessionId, agent, headers = {}, timeoutMs = 30_000 }) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers: {
          accept: 'application/json, text/event-stream',
          ...(message === undefined ? {} : { 'content-type': 'application/json' }),
          ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
          'mcp-protocol-version': '2025-11-25',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          clearTimeout(timer);
          try {
            const type = String(res.headers['content-type'] ?? '');
            resolve({
              status: res.statusCode,
              sessionId: res.headers['mcp-session-id'],
              text,
              messages: res.statusCode < 300 ? messagesOf(type, text) : [],
            });
          } catch (error) {
            reject(new Error(`${res.statusCode}: ${error.message}: ${text.slice(0, 200)}`));
          }
        });
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(message === undefined ? undefined : JSON.stringify(message));
  });
}

/**
 * A well-behaved client session (2025-11-25, one keep-alive connection at a time): initialize, then calls, then DELETE.
 * Every request's id is `${name}-${n}`, so the trace can be searched for it; `sent` and `answered` list them.
 */
export class WellBehavedSession {
  #count = 0;
  sessionId;
  /** The ids of the requests sent, and of those answered. */
  sent = [];
  answered = [];

  constructor(url, name, agent = new Agent({ keepAlive: true, maxSockets: 1 })) {
    this.url = url;
    this.name = name;
    this.agent = agent;
  }

  /** A request of this session; its answer (a result or error), or throws when none came. */
  async ask(method, params, timeoutMs) {
    const id = `${this.name}-${++this.#count}`;
    const reply = await exchange(this.url, {
      message: { jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) },
      sessionId: this.sessionId,
      agent: this.agent,
      timeoutMs,
    });
    this.sent.push(id);
    const answer = reply.messages.find((one) => one.id === id && ('result' in one || 'error' in one));
    if (answer === undefined) throw new Error(`${method} ${id}: HTTP ${reply.status}, no answer: ${reply.text.slice(0, 200)}`);
    this.answered.push(id);
    if (method === 'initialize') this.sessionId = reply.sessionId;
    return { answer, reply };
  }

  async open() {
    const { answer } = await this.ask('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'mcprely-hostile-bench', version: '1' },
    });
    if (answer.error !== undefined) throw new Error(`initialize: ${JSON.stringify(answer.error)}`);
    const notified = await exchange(this.url, {
      message: { jsonrpc: '2.0', method: 'notifications/initialized' },
      sessionId: this.sessionId,
      agent: this.agent,
    });
    if (notified.status !== 202) throw new Error(`notifications/initialized: HTTP ${notified.status}`);
    return this;
  }

  /** tools/call of `tool`: its result, or throws (an error answer included). */
  async call(tool, args = {}, timeoutMs = 30_000) {
    const { answer } = await this.ask('tools/call', { name: tool, arguments: args }, timeoutMs);
    if (answer.error !== undefined || answer.result?.isError === true)
      throw new Error(`tools/call ${tool}: ${JSON.stringify(answer.error ?? answer.result)}`);
    return answer.result;
  }

  async close() {
    if (this.sessionId !== undefined) await exchange(this.url, { method: 'DELETE', sessionId: this.sessionId, agent: this.agent });
    this.agent.destroy();
  }
}

/**
 * How many times each id of `ids` is in a trace's messages from `from` (a request of the client, an answer of the
 * server); also whether every line of the trace is JSON.
 */
export function traceCounts(tracePath, from, ids) {
  const counts = new Map(ids.map((id) => [id, 0]));
  let unreadable = 0;
  for (const line of readFileSync(tracePath, 'utf8').split('\n')) {
    if (line === '') continue;
    let record;
    try {
      record = JSON.parse(line);
    } catch {
      unreadable++;
      continue;
    }
    if (record.from !== from || record.message === undefined) continue;
    for (const member of Array.isArray(record.message) ? record.message : [record.message]) {
      const id = member?.id;
      if (typeof id === 'string' && counts.has(id) && (from === 'client' ? 'method' in member : !('method' in member)))
        counts.set(id, counts.get(id) + 1);
    }
  }
  return { counts, unreadable };
}

/** The ids of `counts` not seen exactly once, as words. */
export function notExactlyOnce(counts) {
  return [...counts].filter(([, count]) => count !== 1).map(([id, count]) => `${id}×${count}`);
}
