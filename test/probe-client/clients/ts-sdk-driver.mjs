// What the two TypeScript SDK drivers (ts-sdk-v1.mjs, ts-sdk-v2.mjs) share: the command line, the connection, the
// calls one after the other with the library's timeout options, one JSON line per call on stdout, and the close.
// Each driver gives only what differs between the libraries: its classes, how a call takes its options, how a timeout
// error looks, and the client options a --protocol asks for.
//   usage: node <driver> [options] <url>  |  node <driver> [options] --stdio <program> [args…]
//   options: --scenarios a,b (required unless --list-tools)  --timeout ms  --max-total ms  --reset-on-progress  --progress
//            --abort-after-response (abort the call's signal 500 ms after it settled)  --retry-with-key  --protocol <v>
//            --drop-retry <ms> (drop_stream_resumable called with {retryMs}: the stream advises a later reconnection)
//            --list-tools (tools/list first, through the library's own listTools)
// output line: {"scenario", "outcome": "result"|"error", "error"?, "ms"} (+ "isError": true when the result had
// isError, + "retry": true on the --retry-with-key second call); with --list-tools first {"listTools": "result"|"error",
// "tools"?: names, "error"?, "protocol": the version the library settled, where it tells}. Exit 0 after the calls, 1
// when it could not connect, 2 on bad usage.
import { randomUUID } from 'node:crypto';

/**
 * @param {{ name: string, protocols: string, clientOptions: (protocol: string | undefined) => object | undefined,
 *   Client: any, StreamableHTTPClientTransport: any, StdioClientTransport: any,
 *   callTool: (client: any, params: object, options: object) => Promise<any>, isTimeout: (error: any) => boolean,
 *   protocolOf: (client: any) => string | undefined }} library
 */
export async function runDriver(library) {
  const usage = (message) => {
    process.stderr.write(
      `${message}\nusage: node ${library.name}.mjs --scenarios a,b [--timeout ms] [--max-total ms] [--reset-on-progress]\n  ` +
        `[--progress] [--abort-after-response] [--retry-with-key] [--protocol ${library.protocols}] [--list-tools]\n  ` +
        '(<url> | --stdio <program> [args…])\n',
    );
    process.exit(2);
  };
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
    else if (a === '--drop-retry') opts.dropRetry = Number(value());
    else if (a === '--protocol') opts.protocol = value();
    else if (a === '--list-tools') opts.listTools = true;
    else if (a === '--stdio') {
      target = { stdio: argv.slice(i + 1) };
      break;
    } else if (!a.startsWith('--') && !target) target = { url: a };
    else usage(`unknown argument: ${a}`);
  }
  opts.scenarios ??= [];
  if (!opts.scenarios.length && !opts.listTools) usage('--scenarios is required (or --list-tools)');
  if (!target || (target.stdio && !target.stdio.length)) usage('a <url> or --stdio <program> is required');
  const clientOptions = library.clientOptions(opts.protocol);
  if (clientOptions === undefined) usage(`--protocol ${opts.protocol}: expected ${library.protocols}`);

  const transport = target.url
    ? new library.StreamableHTTPClientTransport(new URL(target.url))
    : // The SDK passes only a few variables to the server by default; the server gets the whole environment.
      new library.StdioClientTransport({ command: target.stdio[0], args: target.stdio.slice(1), env: process.env });
  const client = new library.Client({ name: `mcprely-driver-${library.name}`, version: '1.0.0' }, clientOptions);
  client.onerror = (e) => process.stderr.write(`[client onerror] ${e?.message ?? e}\n`);
  try {
    await client.connect(transport);
  } catch (e) {
    process.stderr.write(`could not connect: ${e?.message ?? e}\n`);
    await client.close().catch(() => {});
    process.exit(1);
  }

  if (opts.listTools) {
    const protocol = library.protocolOf(client) ?? null;
    try {
      const listed = await client.listTools();
      console.log(JSON.stringify({ listTools: 'result', tools: listed.tools.map((tool) => tool.name), protocol }));
    } catch (e) {
      console.log(JSON.stringify({ listTools: 'error', error: e?.message ?? String(e), protocol }));
    }
  }

  const call = async (name, args, extra = {}) => {
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
      const result = await library.callTool(client, { name, arguments: args }, options);
      line = { scenario: name, outcome: 'result', ...(result.isError && { isError: true }) };
    } catch (e) {
      timedOut = library.isTimeout(e);
      line = { scenario: name, outcome: 'error', error: e?.message ?? String(e) };
    }
    const ms = Math.round(performance.now() - started);
    // A host that tears the operation down a while after it settled (the user closes its panel): later than any race.
    if (controller !== undefined) {
      await new Promise((r) => setTimeout(r, 500));
      controller.abort();
    }
    console.log(JSON.stringify({ ...line, ms, ...extra }));
    return timedOut;
  };

  for (const name of opts.scenarios) {
    if (name === 'slow_write') {
      // One key per intent, made before the first attempt and kept on the retry.
      const args = { idempotencyKey: randomUUID() };
      const timedOut = await call(name, args);
      if (timedOut && opts.retryWithKey) await call(name, args, { retry: true });
    } else await call(name, name === 'drop_stream_resumable' && opts.dropRetry !== undefined ? { retryMs: opts.dropRetry } : {});
  }

  // Give fire-and-forget sends (notifications/cancelled after an abort) a moment to leave, then close.
  await new Promise((r) => setTimeout(r, 200));
  await client.close().catch((e) => process.stderr.write(`close failed: ${e?.message ?? e}\n`));
  process.exitCode = 0;
  // The SDK can leave a stray timer behind (the one maxTotalTimeout forgets to clear); do not wait for it.
  setTimeout(() => process.exit(0), 500).unref();
}
