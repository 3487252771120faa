// Real-client driver for `mcprely probe-client`: the official TypeScript SDK v1
// (@modelcontextprotocol/sdk 1.x: Client + StreamableHTTPClientTransport / StdioClientTransport),
// used the way a host uses it. It connects, calls the given scenario tools one after the other,
// prints one JSON line per call on stdout, then closes the client and exits 0.
// Exit 1: could not connect (reason on stderr). Exit 2: bad usage.
//
// usage:
//   node ts-sdk-v1.mjs [options] <url>                       Streamable HTTP
//   node ts-sdk-v1.mjs [options] --stdio <program> [args…]   stdio (spawns the server itself)
// options:
//   --scenarios a,b,c       tools to call, in order (required)
//   --timeout <ms>          RequestOptions.timeout (SDK default 60000)
//   --max-total <ms>        RequestOptions.maxTotalTimeout
//   --reset-on-progress     RequestOptions.resetTimeoutOnProgress = true
//   --progress              pass onprogress (the SDK then sends _meta.progressToken)
//   --abort-after-response  pass an AbortSignal and abort it 500 ms after the call settled
//   --retry-with-key        on a timeout of slow_write, call it once more with the same idempotencyKey
//   --protocol <version>    v1 always offers its LATEST_PROTOCOL_VERSION (2025-11-25) and has no option
//                           to choose; only 2025-11-25 is accepted
// output line: {"scenario", "outcome": "result"|"error", "error"?, "ms"} (+ "isError": true when the
// result had isError, + "retry": true on the --retry-with-key second call)
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

function usage(msg) {
  process.stderr.write(
    `${msg}\nusage: node ts-sdk-v1.mjs --scenarios a,b [--timeout ms] [--max-total ms] [--reset-on-progress]\n  ` +
      `[--progress] [--abort-after-response] [--retry-with-key] [--protocol 2025-11-25] (<url> | --stdio <program> [args…])\n`,
  );
  process.exit(2);
}

const opts = {};
let target;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} needs a value`));
  if (a === '--scenarios') opts.scenarios = value().split(',').filter(Boolean);
  else if (a === '--timeout') opts.timeout = Number(value());
  else if (a === '--max-total') opts.maxTotal = Number(value());
  else if (a === '--reset-on-progress') opts.resetOnProgress = true;
  else if (a === '--progress') opts.progress = true;
  else if (a === '--abort-after-response') opts.abortAfter = true;
  else if (a === '--retry-with-key') opts.retryWithKey = true;
  else if (a === '--protocol') opts.protocol = value();
  else if (a === '--stdio') {
    target = { stdio: argv.slice(i + 1) };
    break;
  } else if (!a.startsWith('--') && !target) target = { url: a };
  else usage(`unknown argument: ${a}`);
}
if (!opts.scenarios?.length) usage('--scenarios is required');
if (!target || (target.stdio && !target.stdio.length)) usage('a <url> or --stdio <program> is required');
if (opts.protocol !== undefined && opts.protocol !== '2025-11-25')
  usage(`--protocol ${opts.protocol}: SDK v1 cannot choose the protocol version (it offers 2025-11-25)`);

const transport = target.url
  ? new StreamableHTTPClientTransport(new URL(target.url))
  : new StdioClientTransport({ command: target.stdio[0], args: target.stdio.slice(1), env: process.env });
const client = new Client({ name: 'mcprely-driver-ts-sdk-v1', version: '1.0.0' });
client.onerror = (e) => process.stderr.write(`[client onerror] ${e?.message ?? e}\n`);

try {
  await client.connect(transport);
} catch (e) {
  process.stderr.write(`could not connect: ${e?.message ?? e}\n`);
  await client.close().catch(() => {});
  process.exit(1);
}

async function call(name, args, extra = {}) {
  const controller = opts.abortAfter ? new AbortController() : undefined;
  const options = {
    ...(opts.timeout !== undefined && { timeout: opts.timeout }),
    ...(opts.maxTotal !== undefined && { maxTotalTimeout: opts.maxTotal }),
    ...(opts.resetOnProgress && { resetTimeoutOnProgress: true }),
    ...(opts.progress && { onprogress: () => {} }),
    ...(controller && { signal: controller.signal }),
  };
  const started = performance.now();
  let line;
  let timedOut = false;
  try {
    const result = await client.callTool({ name, arguments: args }, undefined, options);
    line = { scenario: name, outcome: 'result', ms: 0, ...(result.isError && { isError: true }) };
  } catch (e) {
    timedOut = e?.code === ErrorCode.RequestTimeout;
    line = { scenario: name, outcome: 'error', error: e?.message ?? String(e), ms: 0 };
  }
  line.ms = Math.round(performance.now() - started);
  // A host that tears the operation down a while after it settled (the user closes its panel): later than any race.
  if (controller !== undefined) {
    await new Promise((r) => setTimeout(r, 500));
    controller.abort();
  }
  console.log(JSON.stringify({ ...line, ...extra }));
  return timedOut;
}

for (const name of opts.scenarios) {
  if (name === 'slow_write') {
    const args = { idempotencyKey: randomUUID() };
    const timedOut = await call(name, args);
    if (timedOut && opts.retryWithKey) await call(name, args, { retry: true });
  } else {
    await call(name, {});
  }
}

// Give fire-and-forget sends (e.g. notifications/cancelled after an abort) a moment to leave, then close.
await new Promise((r) => setTimeout(r, 200));
await client.close().catch((e) => process.stderr.write(`close failed: ${e?.message ?? e}\n`));
process.exitCode = 0;
// The SDK can leave a stray timer behind (the one maxTotalTimeout forgets to clear); do not wait for it.
setTimeout(() => process.exit(0), 500).unref();
