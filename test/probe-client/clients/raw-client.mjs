// A raw Streamable HTTP client for `mcprely probe-client --run`, good or deliberately bad by its flags: it plays one
// scenario the way it is told, so that each client judge has a client that passes it and one that fails it.
//   node raw-client.mjs [flags] <url>
// flags:
//   --revision 2025-11-25|2026-07-28   the handshake (initialize, or server/discover) and the protocol header (2026-07-28:
//                                      each request's _meta envelope and its Mcp-Method and Mcp-Name headers too)
//   --scenario <name>                  the tool to call (default never_answers); --args '<json>' its arguments
//   --progress                         ask for progress (a progress token)
//   --give-up <ms>                     when the call has no answer by then, give up with --signal:
//   --signal notification|close|both|none   POST notifications/cancelled, close the call's stream, both, or nothing
//   --cancel-after-answer              POST notifications/cancelled 500 ms after the answer came
//   --resume <n>                       after giving up, resume the call's stream with Last-Event-ID n times, 300 ms apart
//   --on-drop resume|reissue|nothing   when the call's stream ends without an answer (resume: after the stream's SSE
//                                      retry: field, 1 s without one, and read the resumed stream until the answer)
//   --retry <same-key|new-key|same-id> after giving up, call again: with the same key, a new key, or the same request id
//   --linger <ms>                      keep the call's stream open this long before leaving
//   --skip-call                        the handshake only (nothing exercised)
//   --header 'Name: value'             add this header to every request (repeatable): credentials, cookies
import { randomUUID } from 'node:crypto';

const argv = process.argv.slice(2);
const url = argv.at(-1);
const flag = (name, fallback) => {
  const at = argv.indexOf(name);
  return at === -1 ? fallback : argv[at + 1];
};
const has = (name) => argv.includes(name);
const revision = flag('--revision', '2025-11-25');
const scenario = flag('--scenario', 'never_answers');
const giveUpMs = Number(flag('--give-up', '0'));
const signal = flag('--signal', 'notification');
const onDrop = flag('--on-drop', 'nothing');
const resumes = Number(flag('--resume', '0'));
const retry = flag('--retry', '');
const added = Object.fromEntries(
  argv
    .flatMap((arg, at) => (arg === '--header' ? [argv[at + 1]] : []))
    .map((text) => [text.slice(0, text.indexOf(':')), text.slice(text.indexOf(':') + 1).trim()]),
);
let sessionId;
let nextId = 1;
/** The server's SSE `retry:` advice: how long to wait before reconnecting (the EventSource default without one). */
let retryMs = 1000;

const headers = (extra = {}) => ({
  ...added,
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  'MCP-Protocol-Version': revision,
  ...(sessionId === undefined ? {} : { 'Mcp-Session-Id': sessionId }),
  ...extra,
});
const stateless = revision === '2026-07-28';
/**
 * A message as the revision has it on the wire: on 2026-07-28 each request carries its envelope in `_meta` and the
 * Mcp-Method (and for tools/call Mcp-Name) headers that mirror its body.
 */
const post = (message, init = {}) => {
  const request = stateless && message.id !== undefined;
  const body = request
    ? {
        ...message,
        params: {
          ...message.params,
          _meta: {
            ...message.params?._meta,
            'io.modelcontextprotocol/protocolVersion': revision,
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'raw-client', version: '1' },
          },
        },
      }
    : message;
  const mirrored = request
    ? { 'Mcp-Method': message.method, ...(message.method === 'tools/call' ? { 'Mcp-Name': message.params.name } : {}) }
    : {};
  return fetch(url, { method: 'POST', headers: headers(mirrored), body: JSON.stringify(body), ...init });
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads an SSE response: each event to `onEvent` ({id, message}); resolves when the stream ends or breaks. */
async function readEvents(response, onEvent) {
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (.*)$/m.exec(block)?.[1];
        const data = /^data: ?(.*)$/m.exec(block)?.[1];
        const retryField = /^retry: ?(\d+)$/m.exec(block)?.[1];
        if (retryField !== undefined) {
          retryMs = Number(retryField);
          process.stderr.write(`raw-client: the server advised retry ${retryMs} ms\n`);
        }
        // A priming event carries an id and no data: it only sets where a resumption starts.
        if (data !== undefined) onEvent({ id, message: data === '' ? undefined : JSON.parse(data) });
      }
    }
  } catch {
    // Aborted by this client, or broken by the server.
  }
}

async function handshake() {
  if (stateless) {
    const response = await post({ jsonrpc: '2.0', id: nextId++, method: 'server/discover', params: {} });
    await response.text();
    return;
  }
  const response = await post({
    jsonrpc: '2.0',
    id: nextId++,
    method: 'initialize',
    params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'raw-client', version: '1' } },
  });
  sessionId = response.headers.get('mcp-session-id') ?? undefined;
  await response.text();
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
}

const cancelMessage = (id) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'gave up' } });

/** One call: its id, answer (if any), last event id, and whether its stream ended without an answer. */
async function callOnce(id, args) {
  const abort = new AbortController();
  const state = { id, answer: undefined, lastEventId: undefined, dropped: false, abort };
  const params = { name: scenario, arguments: args, ...(has('--progress') ? { _meta: { progressToken: `p${id}` } } : {}) };
  const response = await post({ jsonrpc: '2.0', id, method: 'tools/call', params }, { signal: abort.signal });
  state.done = readEvents(response, ({ id: eventId, message }) => {
    if (eventId !== undefined) state.lastEventId = eventId;
    if (message?.id === id) state.answer = message;
  }).then(() => {
    if (state.answer === undefined && !abort.signal.aborted) state.dropped = true;
  });
  return state;
}

async function giveUp(state) {
  if (signal === 'notification' || signal === 'both') await (await post(cancelMessage(state.id))).text();
  if (signal === 'close' || signal === 'both') state.abort.abort();
}

/** Resumes a stream with Last-Event-ID; reads it until `until` settles (200 ms without one). */
async function resume(lastEventId, until = sleep(200), onEvent = () => undefined) {
  const response = await fetch(url, { method: 'GET', headers: headers({ 'Last-Event-ID': lastEventId }) });
  if (response.ok && response.body !== null) await Promise.race([readEvents(response, onEvent), until]);
  else await response.text();
}

await handshake();
// As a host does: the tools first (their annotations say which calls are safe to send again).
await (await post({ jsonrpc: '2.0', id: 'tools', method: 'tools/list', params: {} })).text();
if (!has('--skip-call')) {
  const args = JSON.parse(flag('--args', '{}'));
  if (scenario === 'slow_write') args.idempotencyKey ??= randomUUID();
  const first = await callOnce(nextId++, args);
  const deadline = giveUpMs > 0 ? Date.now() + giveUpMs : undefined;
  const settled = await Promise.race([first.done.then(() => 'ended'), sleep(giveUpMs > 0 ? giveUpMs : 60_000).then(() => 'timeout')]);
  let resumedSettled;
  if (first.dropped && onDrop === 'resume' && first.lastEventId !== undefined) {
    // As an EventSource reconnects: after the retry the server advised, reading until the answer — or the client's own
    // timeout, which runs on from the call's start (then it gives up, below).
    const left = deadline === undefined ? 5000 : deadline - Date.now();
    const timedOut = sleep(Math.max(0, left)).then(() => 'timeout');
    resumedSettled = await Promise.race([
      sleep(retryMs).then(() =>
        resume(first.lastEventId, timedOut, ({ message }) => {
          if (message?.id === first.id) first.answer = message;
        }),
      ),
      timedOut,
    ]);
  }
  if (first.dropped && onDrop === 'reissue') {
    const again = await callOnce(nextId++, args);
    await Promise.race([again.done, sleep(giveUpMs > 0 ? giveUpMs : 5000)]);
  }
  if ((settled === 'timeout' || resumedSettled === 'timeout') && first.answer === undefined) {
    await giveUp(first);
    for (let i = 0; i < resumes && first.lastEventId !== undefined; i++) {
      await sleep(300);
      await resume(first.lastEventId);
    }
    if (retry !== '') {
      const key = retry === 'new-key' ? randomUUID() : args.idempotencyKey;
      const id = retry === 'same-id' ? first.id : nextId++;
      const again = await callOnce(id, { ...args, idempotencyKey: key });
      await Promise.race([again.done, sleep(500)]);
      again.abort.abort();
    }
  }
  // Later than the grace: a cancellation that crossed the answer in flight is the race, allowed.
  if (first.answer !== undefined && has('--cancel-after-answer')) {
    await sleep(500);
    await (await post(cancelMessage(first.id))).text();
  }
  // A client that keeps the call's stream open a while longer (its cancellation was a notification only).
  await sleep(Number(flag('--linger', '0')));
  first.abort.abort();
}
// Let what the last messages set off be seen before the client goes; the timers still pending are not waited for.
await sleep(300);
process.exit(0);
