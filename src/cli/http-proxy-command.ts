import { type ListenAddress, startHttpRelay } from '../proxy/http-relay.js';
import { type HttpEndpoint, redactSecrets, secretsOf, shownEndpoint, shownUrlText } from '../probe/request-headers.js';
import { displayText } from '../text/display-text.js';
import { listenerGuard } from '../api/listener-guard.js';
import { DEFAULT_LISTEN, parseListen } from '../api/listen-address.js';
import type { ProxyOptions } from './proxy-options.js';
import { judgeAsItGoes, openRecorder, writeVerdict } from './proxy-session.js';
import { TRACE_TRANSPORT } from '../protocol/transports.js';

/** `--url`: an absolute http(s) URL; a message saying what is wrong otherwise. */
export function parseUpstream(text: string): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `--url ${shownUrlText(text)}: not a URL; give the server's endpoint, such as http://127.0.0.1:3001/mcp`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `--url ${shownUrlText(text)}: the endpoint must be http:// or https://`;
  return url;
}

/**
 * `mcprely proxy --url <endpoint> [--listen 127.0.0.1:PORT]`: a Streamable HTTP relay the host connects to in place
 * of the server's endpoint. Prints where it listens, relays until SIGINT or SIGTERM, then writes the verdict to
 * stderr. The trace's header names the upstream by origin and path only: credentials and query (tokens) never reach it.
 * Each `--header` goes on every upstream request, in place of the host's header of that name.
 */
export async function runHttpProxy(options: ProxyOptions & { readonly url: string }): Promise<number> {
  const upstream = parseUpstream(options.url);
  const listen = options.listen === undefined ? DEFAULT_LISTEN : parseListen(options.listen);
  for (const problem of [upstream, listen])
    if (typeof problem === 'string') {
      process.stderr.write(`error: ${displayText(problem)}\n`);
      return 2;
    }
  const endpoint: HttpEndpoint = { url: upstream as URL, headers: options.headers ?? [] };
  // A secret of the proxy's own (a --header, the query) that the server echoes in a message stays out of the trace.
  const secrets = secretsOf(endpoint);
  const redact = secrets.length === 0 ? undefined : (line: string) => redactSecrets(line, secrets);
  const recorder = openRecorder(
    { transport: TRACE_TRANSPORT['streamable-http'], server: shownEndpoint(endpoint.url) },
    options.record,
    redact,
  );
  if (recorder === undefined) return 2;
  const at = listen as ListenAddress;
  let relay: Awaited<ReturnType<typeof startHttpRelay>>;
  try {
    relay = await startHttpRelay(endpoint, at, recorder, listenerGuard('mcprely proxy', at.host, options));
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const why =
      code === 'EADDRINUSE' ? 'the port is in use' : code === 'EADDRNOTAVAIL' ? 'no such address on this machine' : (code ?? message);
    recorder.end(`not started: ${why}`);
    process.stderr.write(`error: cannot listen on ${displayText(options.listen ?? '127.0.0.1')}: ${displayText(why)}\n`);
    return 2;
  }
  const stopJudging = judgeAsItGoes(recorder, options);
  process.stderr.write(`mcprely proxy: listening on ${relay.url} → ${shownEndpoint(endpoint.url)} (SIGINT or SIGTERM ends it)\n`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  // The recording ends first: streams the relay's own closing ends are not the host's doing (not cancellations).
  stopJudging();
  writeVerdict(recorder, `interrupted (${signal})`, options);
  await relay.close();
  return 0;
}
