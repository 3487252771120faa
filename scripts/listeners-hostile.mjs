// Hostile HTTP and load on mcprely's three listeners, each the built CLI in its own process: `mcprely probe-client
// --listen`, `mcprely proxy --url` (relaying to the SDK v1 test server) and `mcprely mcp --listen` (mcprely as an MCP
// server, in a working folder with a manifest to review). Each class of attack is thrown with raw
// node:net / node:http requests; after each the listener must be alive, a well-behaved session opened before the
// attacks must still complete a tools/call, and its peak memory (VmHWM) must stay under the bound. At the end, every
// message of the sessions that finished is in the trace exactly once. Prints a table; exits 1 on any failure.
//   node scripts/listeners-hostile.mjs [--no-build] [--listener proxy|probe-client|mcp] [--class <words in its name>]…
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alive, notExactlyOnce, procMb, raw, requestBytes, sleep, started, traceCounts, WellBehavedSession } from './listener-clients.mjs';

/** The values following each `name` in the arguments. */
const argumentsOf = (name) =>
  process.argv.flatMap((arg, index) => (arg === name && index + 1 < process.argv.length ? [process.argv[index + 1]] : []));
const listenerFilter = argumentsOf('--listener')[0];
const classFilter = argumentsOf('--class');
const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/mcprely.js');
const work = mkdtempSync(join(tmpdir(), 'mcprely-listeners-hostile-'));
if (!process.argv.includes('--no-build')) {
  const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}

/**
 * Peak resident memory each listener must stay under (MB). Measured here: Node's own ~50 MB; sixteen 6 MiB bodies at
 * once (the proxy holds at most 64 Mi characters of body text for its recording, the probe-client 4 MiB a body) and a
 * session of 20 000 recorded requests judged live leave mostly garbage: the proxy's heap went from 127 MB to 6 MB at
 * its next full collection, its RSS back to ~75 MB. How high the peak goes is when the collector runs: seen here
 * probe-client 150-195 MB, proxy 276-452 MB on a machine shared with other jobs.
 */
const PEAK_MB = { 'probe-client': 320, proxy: 512, mcp: 320 };
/** The most sessions mcprely mcp keeps (MAX_SESSIONS of src/mcp-server/http-transport.ts): past it the least recently used ends. */
const MCP_MAX_SESSIONS = 32;
/** What a slow sender may take before the listener closes its connection (ms): the listeners' limits and a check interval's slack. */
const HEADERS_CLOSED_WITHIN = 10_000 + 3_000;
const REQUEST_CLOSED_WITHIN = 30_000 + 3_000;
/** Sessions of the load class, and how many go at once. */
const SESSIONS = 1000;
const AT_ONCE = 25;

const JSON_HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  'MCP-Protocol-Version': '2025-11-25',
};
const rpc = (id, method, params) => JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const deepArray = (depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Runs `task` over `items`, `limit` at a time. */
async function pool(items, limit, task) {
  const results = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index], index);
      }
    }),
  );
  return results;
}

/** Each class of attack: what it sends, and which outcomes are failures (in words). `ctx` is the listener under attack. */
const CLASSES = [
  {
    name: 'malformed JSON',
    async run(ctx) {
      const bodies = [
        '{',
        'not json',
        Buffer.from([0xff, 0xfe, 0x7b, 0x7d]).toString('latin1'),
        '',
        'null',
        '"a string"',
        '[]',
        '[1, 2, 3]',
        '{"jsonrpc":"2.0"}',
        '{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}',
        '{"__proto__":{"polluted":true},"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        `{"jsonrpc":"2.0","id":1e999999,"method":"tools/list"}`,
        `[${Array.from({ length: 10_000 }, (_, index) => rpc(`batch-${index}`, 'ping')).join(',')}]`,
        `{"jsonrpc":"2.0","id":"deep-args","method":"tools/call","params":{"name":"echo","arguments":{"nested":${deepArray(100_000)}}}}`,
        `{"jsonrpc":"2.0","id":"deep-params","method":"tools/list","params":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`,
        `{"jsonrpc":"2.0","id":"deep-pretty","method":"tools/call","params":{"name":"echo","arguments":\n${deepArray(100_000)}\n}}`,
      ];
      const failures = [];
      for (const [index, body] of bodies.entries())
        for (const sessionId of [undefined, ctx.victim.sessionId]) {
          const answer = await raw(
            ctx.port,
            [requestBytes('POST', ctx.path, { ...JSON_HEADERS, ...(sessionId ? { 'Mcp-Session-Id': sessionId } : {}) }, body)],
            { waitMs: 10_000 },
          );
          if (answer.status === undefined || answer.status >= 500)
            failures.push(`body ${index}${sessionId ? ' (in a session)' : ''}: ${answer.status ?? 'no answer'}`);
          // mcprely mcp takes one message a POST: a batch (an array) or a body that is not JSON is a 400.
          else if (ctx.kind === 'mcp' && (body.startsWith('[') || index <= 3) && answer.status !== 400)
            failures.push(`body ${index}${sessionId ? ' (in a session)' : ''}: ${answer.status}, not 400`);
        }
      return { tried: bodies.length * 2, failures };
    },
  },
  {
    name: 'bodies past the limits',
    async run(ctx) {
      const big = 'x'.repeat(6 * 1024 * 1024);
      const call = rpc('big', 'tools/call', { name: 'echo', arguments: { message: big } });
      const failures = [];
      const expected = ctx.kind === 'proxy' ? undefined : [413];
      const attempts = [
        () => raw(ctx.port, [requestBytes('POST', ctx.path, JSON_HEADERS, call)], { waitMs: 15_000 }),
        () =>
          raw(
            ctx.port,
            [
              requestBytes('POST', ctx.path, { ...JSON_HEADERS, 'Transfer-Encoding': 'chunked' }),
              ...Array.from({ length: 7 }, () => `100000\r\n${'y'.repeat(0x100000)}\r\n`),
              '0\r\n\r\n',
            ],
            { waitMs: 15_000 },
          ),
        // A Content-Length far past what is sent, then silence: the request never completes.
        () =>
          raw(ctx.port, [requestBytes('POST', ctx.path, { ...JSON_HEADERS, 'Content-Length': '999999999999' }), 'x'.repeat(1000)], {
            waitMs: 3000,
          }),
      ];
      let tried = 0;
      // Sixteen at once: the listener holds each body (or its recorded head) at the same time, 96 MiB in all.
      for (const attempt of attempts) {
        const answers = await Promise.all(Array.from({ length: 16 }, () => attempt()));
        tried += answers.length;
        for (const answer of answers)
          if (
            attempt !== attempts[2] &&
            (answer.status === undefined || answer.status >= 500 || (expected && !expected.includes(answer.status)))
          )
            failures.push(`${answer.status ?? 'no answer'} (${answer.received.split('\r\n')[0]})`);
      }
      return { tried, failures };
    },
  },
  {
    name: 'headers past the limits',
    async run(ctx) {
      const failures = [];
      const attempts = [
        { 'X-Big': 'h'.repeat(20 * 1024) },
        Object.fromEntries(Array.from({ length: 3000 }, (_, index) => [`x${index}`, '1'])),
        { 'Mcp-Session-Id': 's'.repeat(15 * 1024) },
      ];
      for (const headers of attempts) {
        const answer = await raw(ctx.port, [requestBytes('POST', ctx.path, { ...JSON_HEADERS, ...headers }, rpc(1, 'ping'))]);
        if (answer.status === undefined || answer.status >= 500) failures.push(`${answer.status ?? 'no answer'}`);
      }
      return { tried: attempts.length, failures };
    },
  },
  {
    name: 'slow headers (slowloris, 100 connections)',
    async run(ctx) {
      const head = requestBytes('POST', ctx.path, JSON_HEADERS, rpc(1, 'ping'));
      // One byte every 200 ms: a request's head takes longer than any limit; the connection must be closed before.
      const answers = await Promise.all(
        Array.from({ length: 100 }, () => raw(ctx.port, [...head], { gapMs: 200, waitMs: HEADERS_CLOSED_WITHIN + 2000 })),
      );
      const failures = answers
        .filter((answer) => !answer.closedByServer || answer.afterMs > HEADERS_CLOSED_WITHIN)
        .map((answer) => `still open after ${Math.round(answer.afterMs)} ms`);
      return { tried: answers.length, failures: failures.slice(0, 3).concat(failures.length > 3 ? [`… ${failures.length} in all`] : []) };
    },
  },
  {
    name: 'silent connections (100)',
    async run(ctx) {
      const answers = await Promise.all(Array.from({ length: 100 }, () => raw(ctx.port, [], { waitMs: HEADERS_CLOSED_WITHIN + 2000 })));
      const failures = answers
        .filter((answer) => !answer.closedByServer)
        .map((answer) => `still open after ${Math.round(answer.afterMs)} ms`);
      return { tried: answers.length, failures: failures.slice(0, 3).concat(failures.length > 3 ? [`… ${failures.length} in all`] : []) };
    },
  },
  {
    name: 'slow body (100 connections)',
    async run(ctx) {
      const body = rpc('slow-body', 'tools/list');
      const head = requestBytes('POST', ctx.path, { ...JSON_HEADERS, 'Content-Length': String(body.length + 4000) });
      const answers = await Promise.all(
        Array.from({ length: 100 }, () =>
          raw(ctx.port, [head, ...(body + ' '.repeat(4000))], { gapMs: 300, waitMs: REQUEST_CLOSED_WITHIN + 2000 }),
        ),
      );
      const failures = answers
        .filter((answer) => !answer.closedByServer || answer.afterMs > REQUEST_CLOSED_WITHIN)
        .map((answer) => `still open after ${Math.round(answer.afterMs)} ms`);
      return { tried: answers.length, failures: failures.slice(0, 3).concat(failures.length > 3 ? [`… ${failures.length} in all`] : []) };
    },
  },
  {
    name: 'abrupt disconnects',
    async run(ctx) {
      const failures = [];
      const body = rpc('cut', 'tools/list');
      const sessionHeaders = { ...JSON_HEADERS, 'Mcp-Session-Id': ctx.victim.sessionId };
      const streamed = rpc(`stream-${Math.random()}`, 'tools/call', {
        name: ctx.streamingTool[0],
        arguments: ctx.streamingTool[1],
        _meta: { progressToken: 'p' },
      });
      const attempts = [
        // Mid-body: the head and half the body, then gone (FIN, then RST).
        ...Array.from({ length: 20 }, (_, index) =>
          raw(ctx.port, [requestBytes('POST', ctx.path, { ...sessionHeaders, 'Content-Length': String(body.length) }), body.slice(0, 10)], {
            abortAfterMs: 50,
            reset: index % 2 === 1,
          }),
        ),
        // Mid-head.
        ...Array.from({ length: 10 }, () => raw(ctx.port, ['POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-'], { abortAfterMs: 50 })),
        // Mid-stream: a call that streams progress, left once its first events came.
        ...Array.from({ length: 20 }, (_, index) =>
          raw(ctx.port, [requestBytes('POST', ctx.path, sessionHeaders, streamed)], {
            abortAfterMs: ctx.streamOpensWithinMs ?? 400,
            reset: index % 2 === 1,
          }),
        ),
      ];
      const answers = await Promise.all(attempts);
      for (const answer of answers.slice(30))
        if (!/^HTTP\/1\.1 200/.test(answer.received)) failures.push(`mid-stream: ${JSON.stringify(answer).slice(0, 300)}`);
      return { tried: answers.length, failures };
    },
  },
  {
    name: 'calls left running (200 in a session)',
    async run(ctx) {
      // Each call streams progress and is left once its stream opened: on 2025-11-25 the work goes on, for a resumption.
      const session = await new WellBehavedSession(ctx.url, 'leaver').open();
      const headers = { ...JSON_HEADERS, 'Mcp-Session-Id': session.sessionId };
      const before = procMb(ctx.child.pid, 'VmRSS') ?? 0;
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, index) => {
          const call = rpc(`left-${index}`, 'tools/call', {
            name: ctx.streamingTool[0],
            arguments: ctx.streamingTool[1],
            _meta: { progressToken: `left-${index}` },
          });
          return raw(ctx.port, [requestBytes('POST', ctx.path, headers, call)], { abortAfterMs: 300 });
        }),
      );
      await sleep(5000);
      const grown = (procMb(ctx.child.pid, 'VmRSS') ?? 0) - before;
      // Left before any answer is still left (a busy upstream may not have opened its stream); a call past the probe-client's
      // bound is answered at once (an error, HTTP 200); a reset or an HTTP error is a failure.
      const failures = answers
        .filter((answer) => !/^HTTP\/1\.1 200/.test(answer.received) && (answer.closedByServer || answer.received !== ''))
        .map((answer) => `refused: ${answer.received.slice(0, 60)}`);
      if (grown > 40) failures.push(`${grown.toFixed(0)} MB more 5 s later`);
      return {
        tried: answers.length,
        failures: failures.slice(0, 3),
        note: `RSS ${grown >= 0 ? '+' : ''}${grown.toFixed(1)} MB over the 5 s after`,
      };
    },
  },
  {
    name: 'unknown sessions',
    async run(ctx) {
      const failures = [];
      const attempts = [
        ['POST', rpc('unknown', 'tools/list'), {}],
        ['GET', '', {}],
        ['GET', '', { 'Last-Event-ID': '1' }],
        ['DELETE', '', {}],
      ];
      for (const [method, body, extra] of attempts)
        for (const sessionId of ['not-a-session', '00000000-0000-0000-0000-000000000000', 'x'.repeat(4000)]) {
          const answer = await raw(ctx.port, [
            requestBytes(method, ctx.path, { ...JSON_HEADERS, 'Mcp-Session-Id': sessionId, ...extra }, body),
          ]);
          // mcprely mcp offers no GET stream at all: 405 whatever the session.
          const right = method === 'GET' && ctx.kind === 'mcp' ? [405] : [404, 400];
          if (!right.includes(answer.status)) failures.push(`${method}: ${answer.status ?? 'no answer'}`);
        }
      return { tried: attempts.length * 3, failures };
    },
  },
  {
    name: 'wrong methods and paths',
    async run(ctx) {
      const failures = [];
      const attempts = [
        ['PUT', ctx.path],
        ['PATCH', ctx.path],
        ['OPTIONS', ctx.path],
        ['HEAD', ctx.path],
        ['TRACE', ctx.path],
        ['FOO', ctx.path],
        ['CONNECT', '127.0.0.1:1'],
        ['GET', ctx.path],
        ['DELETE', ctx.path],
        ['POST', '/nope'],
        ['GET', '/'],
        ['POST', '*'],
      ];
      for (const [method, path] of attempts) {
        const body = ['PUT', 'PATCH', 'POST'].includes(method) ? rpc('wrong', 'tools/list') : '';
        const answer = await raw(ctx.port, [requestBytes(method, path, JSON_HEADERS, body)]);
        const clean = answer.status !== undefined ? answer.status < 500 : answer.closedByServer;
        if (!clean) failures.push(`${method} ${path}: ${answer.status ?? 'no answer'}`);
      }
      return { tried: attempts.length, failures };
    },
  },
  {
    name: 'foreign Host and Origin',
    async run(ctx) {
      // [Host (undefined: none), extra headers, the statuses that are right]
      const attempts = [
        ['evil.example', {}, [403]],
        ['127.0.0.1.nip.io', {}, [403]],
        ['localhost.evil.example:80', {}, [403]],
        ['127.0.0.1', { Origin: 'http://evil.example' }, [403]],
        ['127.0.0.1', { Origin: 'null' }, [403]],
        ['127.0.0.1', { Origin: 'http://127.0.0.1.evil.example' }, [403]],
        [undefined, {}, [400, 403]],
      ];
      const failures = [];
      for (const [host, extra, right] of attempts) {
        const bytes = requestBytes('POST', ctx.path, { ...JSON_HEADERS, ...extra }, rpc('foreign', 'tools/list'));
        const answer = await raw(ctx.port, [bytes.replace('Host: 127.0.0.1\r\n', host === undefined ? '' : `Host: ${host}\r\n`)]);
        if (!right.includes(answer.status))
          failures.push(`Host ${host ?? '(none)'} ${JSON.stringify(extra)}: ${answer.status ?? 'no answer'}`);
      }
      return { tried: attempts.length, failures };
    },
  },
  {
    name: 'connection flood (500 at once)',
    async run(ctx) {
      const bytes = requestBytes('POST', ctx.path, JSON_HEADERS, rpc('flood', 'tools/list'));
      const answers = await Promise.all(Array.from({ length: 500 }, () => raw(ctx.port, [bytes], { waitMs: 20_000 })));
      const failures = answers
        .filter((answer) => (answer.status !== undefined ? answer.status >= 500 : !answer.closedByServer))
        .map((answer) => `${answer.status ?? 'no answer'} after ${Math.round(answer.afterMs)} ms`);
      const answered = answers.filter((answer) => answer.status !== undefined).length;
      return {
        tried: answers.length,
        failures: failures.slice(0, 3).concat(failures.length > 3 ? [`… ${failures.length} in all`] : []),
        note: `${answered} of ${answers.length} answered`,
      };
    },
  },
  {
    name: `${SESSIONS} sessions`,
    run: (ctx) => ctx.load(ctx),
  },
  {
    name: 'sessions past the bound (200 never closed)',
    kinds: ['mcp'],
    async run(ctx) {
      // A client that never sends DELETE: past the bound the least recently used session ends (404 after), so no more
      // than the bound are ever kept, and memory does not grow with the sessions opened.
      const before = procMb(ctx.child.pid, 'VmRSS') ?? 0;
      const opened = await pool(
        Array.from({ length: 200 }, (_, index) => index),
        10,
        (index) => new WellBehavedSession(ctx.url, `kept-${index}`).open(),
      );
      const failures = [];
      const live = [];
      for (const session of opened) {
        const answer = await raw(ctx.port, [
          requestBytes('POST', ctx.path, { ...JSON_HEADERS, 'Mcp-Session-Id': session.sessionId }, rpc('alive', 'ping')),
        ]);
        if (answer.status === 200) live.push(session);
        else if (answer.status !== 404) failures.push(`a session's ping: ${answer.status ?? 'no answer'}`);
      }
      if (live.length > MCP_MAX_SESSIONS) failures.push(`${live.length} sessions kept, past the bound of ${MCP_MAX_SESSIONS}`);
      if (!live.includes(opened.at(-1))) failures.push('the newest session was ended');
      const grown = (procMb(ctx.child.pid, 'VmRSS') ?? 0) - before;
      if (grown > 40) failures.push(`${grown.toFixed(0)} MB more after 200 sessions`);
      for (const session of opened) session.agent.destroy();
      // The well-behaved client was among the least recently used: it starts a new session, as a client must on 404.
      ctx.steady.sessionId = undefined;
      await ctx.steady.open();
      return {
        tried: opened.length,
        failures: failures.slice(0, 3),
        note: `${live.length} of ${opened.length} still live (bound ${MCP_MAX_SESSIONS}), RSS ${grown >= 0 ? '+' : ''}${grown.toFixed(1)} MB`,
      };
    },
  },
];

/** The probe-client's load: sessions past MAX_SESSIONS are refused (503, a body that says why), and memory does not grow with them. */
async function probeClientLoad(ctx) {
  const failures = [];
  const rss = [];
  const results = await pool(
    Array.from({ length: SESSIONS }, (_, index) => index),
    AT_ONCE,
    async (index) => {
      const session = new WellBehavedSession(ctx.url, `load-${index}`);
      let outcome;
      try {
        await session.open();
        await session.ask('tools/list');
        await session.call('answers_after', { ms: 1 });
        await session.close();
        ctx.finished.push(session);
        outcome = 'served';
      } catch (error) {
        outcome = /HTTP 503.*at most \d+ sessions/.test(error.message) ? 'refused' : `failed: ${error.message.slice(0, 120)}`;
      }
      if (index === 200 || index === SESSIONS - 1) rss.push(procMb(ctx.child.pid, 'VmRSS'));
      return outcome;
    },
  );
  const served = results.filter((one) => one === 'served').length;
  const refused = results.filter((one) => one === 'refused').length;
  failures.push(...results.filter((one) => one.startsWith('failed')).slice(0, 3));
  if (served === 0 || served + refused !== SESSIONS) failures.push(`${served} served, ${refused} refused`);
  const grown = (rss[1] ?? 0) - (rss[0] ?? 0);
  if (grown > 20) failures.push(`${grown.toFixed(0)} MB more after ${SESSIONS - 200} more refusals`);
  return {
    tried: SESSIONS,
    failures,
    note: `${served} served, ${refused} refused (503), RSS +${grown.toFixed(1)} MB over the last ${SESSIONS - 200}`,
  };
}

/**
 * SESSIONS sessions, AT_ONCE at a time, each served whole (initialize, tools/list, a tools/call of `tool`, DELETE): what
 * became of each ('served' or why not), and the listener's RSS after the 200th and the last.
 */
async function wholeSessions(ctx, tool) {
  const rss = [];
  const results = await pool(
    Array.from({ length: SESSIONS }, (_, index) => index),
    AT_ONCE,
    async (index) => {
      const session = new WellBehavedSession(ctx.url, `load-${index}`);
      try {
        await session.open();
        await session.ask('tools/list');
        await session.call(tool);
        await session.close();
        ctx.finished.push(session);
        return 'served';
      } catch (error) {
        return `failed: ${error.message.slice(0, 120)}`;
      } finally {
        if (index === 200 || index === SESSIONS - 1) rss.push(procMb(ctx.child.pid, 'VmRSS'));
      }
    },
  );
  return { failures: results.filter((one) => one !== 'served'), grown: (rss[1] ?? 0) - (rss[0] ?? 0) };
}

const firstFew = (failures) => failures.slice(0, 3).concat(failures.length > 3 ? [`… ${failures.length} in all`] : []);

/** mcprely mcp's load: every session served whole, 25 at once within its bound, memory not growing with them. */
async function mcpLoad(ctx) {
  const { failures, grown } = await wholeSessions(ctx, 'server_status');
  const served = SESSIONS - failures.length;
  if (grown > 20) failures.push(`${grown.toFixed(0)} MB more after ${SESSIONS - 200} more sessions`);
  return {
    tried: SESSIONS,
    failures: firstFew(failures),
    note: `${served} served, RSS ${grown >= 0 ? '+' : ''}${grown.toFixed(1)} MB over the last ${SESSIONS - 200}`,
  };
}

/** The proxy's load: every session relayed whole to the upstream (initialize, tools/list, tools/call, DELETE). */
async function proxyLoad(ctx) {
  const { failures } = await wholeSessions(ctx, 'job_status');
  return { tried: SESSIONS, failures: firstFew(failures) };
}

/** Starts a listener; what the classes need of it. */
async function startListener(kind) {
  const trace = join(work, `${kind}.jsonl`);
  if (kind === 'probe-client') {
    const listener = await started([cli, 'probe-client', '--listen', '127.0.0.1:0', '--record', trace], /listening on (\S+)/, {
      cwd: work,
    });
    return {
      kind,
      listener,
      url: listener.found,
      traces: () =>
        readdirSync(work)
          .filter((name) => name.startsWith('probe-client.'))
          .map((name) => join(work, name)),
      callTool: ['answers_after', { ms: 20 }],
      streamingTool: ['progress_forever', {}],
      load: probeClientLoad,
      stop: () => {},
    };
  }
  if (kind === 'mcp') {
    const folder = mkdtempSync(join(work, 'mcp-'));
    copyFileSync(join(root, 'fixtures/examples/billing.yaml'), join(folder, 'billing.yaml'));
    const listener = await started([cli, 'mcp', '--listen', '127.0.0.1:0', '--folder', folder], /listening on (\S+)/, { cwd: work });
    return {
      kind,
      listener,
      url: listener.found,
      // No trace: mcprely mcp records nothing.
      traces: undefined,
      callTool: ['server_status', {}],
      streamingTool: ['review_operation', { path: 'billing.yaml', operation: 'get_balance' }],
      load: mcpLoad,
      // A review is CPU work between its fixtures: twenty started at once open their streams later than a toy tool's.
      streamOpensWithinMs: 1500,
      stop: () => {},
    };
  }
  const upstream = await started([join(root, 'test/probe/servers/sdk/v1.mjs'), 'correct', 'http', '0'], /listening (\d+)/, { cwd: root });
  const listener = await started(
    [cli, 'proxy', '--url', `http://127.0.0.1:${upstream.found}/mcp`, '--record', trace],
    /listening on (\S+)/,
    {
      cwd: work,
    },
  );
  return {
    kind,
    listener,
    url: listener.found,
    traces: () => [trace],
    callTool: ['job_status', {}],
    streamingTool: ['slow_job', { steps: 20, stepMs: 100 }],
    load: proxyLoad,
    upstream,
    stop: () => upstream.child.kill(),
  };
}

/** Each class against one listener: rows of the table, and the failures in words. */
async function attack(kind) {
  const started = await startListener(kind);
  const { listener } = started;
  const url = new URL(started.url);
  const ctx = { ...started, child: listener.child, port: Number(url.port), path: url.pathname, finished: [] };
  const rows = [];
  const problems = [];
  // The well-behaved session, open before any attack and called after each; the victim, a session the attacks name.
  const steady = await new WellBehavedSession(ctx.url, 'steady').open();
  ctx.victim = await new WellBehavedSession(ctx.url, 'victim').open();
  ctx.steady = steady;
  const classes = CLASSES.filter((one) => one.kinds === undefined || one.kinds.includes(kind));
  for (const one of classes.filter((one) => classFilter.length === 0 || classFilter.some((words) => one.name.includes(words)))) {
    const at = performance.now();
    let result;
    try {
      result = await one.run(ctx);
    } catch (error) {
      result = { tried: 1, failures: [`the attack itself failed: ${error.message}`] };
    }
    const crashed = !alive(ctx.child);
    // The relay's upstream is not under test, but a dead one fails every relayed call after it: said as what it is.
    if (ctx.upstream !== undefined && !alive(ctx.upstream.child)) {
      result.failures.push(`the upstream server died (not the proxy): ${ctx.upstream.output().slice(-600)}`);
      problems.push(...result.failures.map((failure) => `${kind}, ${one.name}: ${failure}`));
      break;
    }
    if (!crashed)
      try {
        await steady.call(...ctx.callTool, 10_000);
      } catch (error) {
        result.failures.push(`the well-behaved session's tools/call: ${error.message}`);
      }
    const peak = procMb(ctx.child.pid, 'VmHWM') ?? Number.NaN;
    if (peak > PEAK_MB[kind]) result.failures.push(`peak RSS ${peak.toFixed(0)} MB over ${PEAK_MB[kind]} MB`);
    rows.push({
      listener: kind,
      name: one.name,
      tried: result.tried,
      failures: result.failures.length,
      crashes: crashed ? 1 : 0,
      peak,
      note: result.note,
      s: (performance.now() - at) / 1000,
    });
    for (const failure of result.failures) problems.push(`${kind}, ${one.name}: ${failure}`);
    if (crashed) {
      problems.push(`${kind}, ${one.name}: the listener died: ${listener.output().slice(-1500)}`);
      break;
    }
  }
  const survived = alive(ctx.child);
  if (survived) {
    await steady.close();
    await ctx.victim.close();
    const exited = new Promise((resolve) => ctx.child.once('close', resolve));
    ctx.child.kill('SIGTERM');
    await exited;
  }
  // mcprely mcp records no trace.
  if (survived && ctx.traces !== undefined) {
    // Every finished session's messages in the trace exactly once: each request from the client, each answer from the server.
    const sessions = [steady, ...ctx.finished];
    const sent = sessions.flatMap((session) => session.sent);
    const answered = sessions.flatMap((session) => session.answered);
    const tally = (from, ids) => {
      const total = new Map(ids.map((id) => [id, 0]));
      let unreadable = 0;
      for (const trace of ctx.traces()) {
        const read = traceCounts(trace, from, ids);
        unreadable += read.unreadable;
        for (const [id, count] of read.counts) total.set(id, total.get(id) + count);
      }
      return { total, unreadable };
    };
    const requests = tally('client', sent);
    const answers = tally('server', answered);
    const wrong = [...notExactlyOnce(requests.total), ...notExactlyOnce(answers.total)];
    const row = {
      listener: kind,
      name: `trace: ${sessions.length} finished sessions`,
      tried: sent.length + answered.length,
      failures: wrong.length,
      crashes: 0,
      peak: Number.NaN,
    };
    rows.push(row);
    if (wrong.length > 0) problems.push(`${kind}: messages not in the trace exactly once: ${wrong.slice(0, 10).join(', ')}`);
    if (requests.unreadable > 0) problems.push(`${kind}: ${requests.unreadable} trace lines are not JSON`);
  }
  started.stop();
  return { rows, problems };
}

const all = [];
const problems = [];
for (const kind of ['probe-client', 'proxy', 'mcp'].filter((kind) => listenerFilter === undefined || kind === listenerFilter)) {
  const result = await attack(kind);
  all.push(...result.rows);
  problems.push(...result.problems);
}
rmSync(work, { recursive: true, force: true });

const header = ['listener', 'class', 'requests tried', 'failures', 'crashes', 'peak RSS (MB)', 'seconds'];
const table = all.map((row) => [
  row.listener,
  row.name,
  String(row.tried),
  String(row.failures),
  String(row.crashes),
  Number.isNaN(row.peak) ? '' : row.peak.toFixed(0),
  row.s === undefined ? '' : row.s.toFixed(1),
]);
const widths = header.map((title, column) => Math.max(title.length, ...table.map((cells) => cells[column].length)));
const line = (cells) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
for (const cells of table) console.log(line(cells));
for (const row of all) if (row.note !== undefined) console.log(`${row.listener}, ${row.name}: ${row.note}`);
console.log(`peak RSS bounds: probe-client ${PEAK_MB['probe-client']} MB, proxy ${PEAK_MB.proxy} MB, mcp ${PEAK_MB.mcp} MB`);
if (problems.length > 0) {
  console.log(`\n${problems.length} problems:`);
  for (const problem of problems) console.log(`  ${problem}`);
}
process.exitCode = problems.length === 0 ? 0 : 1;
