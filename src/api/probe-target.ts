import { splitCommand } from '../probe/command-line.js';
import { type AddedHeader, type HttpEndpoint, httpEndpoint, shownEndpoint, shownUrlText } from '../probe/request-headers.js';

/** A server the probe runs (its command's words), or one it calls at an endpoint; `shown` names it in reports. */
export type ProbeTarget = { readonly stdio: readonly string[]; readonly shown: string } | (HttpEndpoint & { readonly shown: string });

/**
 * The server a probe or init talks to, from the command line: exactly one of a command (split like a shell
 * would, run without one) and an http(s) endpoint, which gets the `--header`s. A problem is a sentence for a usage
 * error (exit 2); it shows a URL without its credentials and query.
 */
export function probeTarget(
  stdio: string | undefined,
  url: string | undefined,
  names: { stdio: string; url: string },
  headers: readonly AddedHeader[] = [],
): ProbeTarget | { problem: string } {
  if ((stdio === undefined) === (url === undefined))
    return { problem: `give exactly one of ${names.stdio} "<command>" and ${names.url} <endpoint>` };
  if (stdio !== undefined) {
    if (headers.length > 0) return { problem: `--header is for an HTTP endpoint (${names.url}): a server over stdio reads no headers` };
    try {
      return { stdio: splitCommand(stdio), shown: stdio };
    } catch (error) {
      return { problem: `${names.stdio} ${JSON.stringify(stdio)}: ${(error as Error).message}` };
    }
  }
  const text = url!;
  const shown = shownUrlText(text);
  if (!/^https?:\/\//i.test(text)) return { problem: `${names.url} ${shown} is not an http:// or https:// URL` };
  const port = /^https?:\/\/(?:[^/?#]*@)?(?:\[[^\]]*\]|[^/:?#@]*):(\d+)(?:[/?#]|$)/i.exec(text)?.[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535))
    return { problem: `${names.url} ${shown}: the port ${port} is out of range (1 to 65535)` };
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return { problem: `${names.url} ${shown} is not a valid URL` };
  }
  return { ...httpEndpoint(parsed, headers), shown: shownEndpoint(parsed) };
}
