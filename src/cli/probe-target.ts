import { splitCommand } from '../probe/command-line.js';

export type ProbeTarget = { readonly stdio: readonly string[]; readonly shown: string } | { readonly url: URL };

/**
 * The server a probe or init talks to, from the command line: exactly one of a command (split like a shell
 * would, run without one) and an http(s) endpoint. A problem is a sentence for a usage error (exit 2).
 */
export function probeTarget(
  stdio: string | undefined,
  url: string | undefined,
  names: { stdio: string; url: string },
): ProbeTarget | { problem: string } {
  if ((stdio === undefined) === (url === undefined))
    return { problem: `give exactly one of ${names.stdio} "<command>" and ${names.url} <endpoint>` };
  if (stdio !== undefined) {
    try {
      return { stdio: splitCommand(stdio), shown: stdio };
    } catch (error) {
      return { problem: `${names.stdio} ${JSON.stringify(stdio)}: ${(error as Error).message}` };
    }
  }
  const text = url!;
  if (!/^https?:\/\//i.test(text)) return { problem: `${names.url} ${text} is not an http:// or https:// URL` };
  const port = /^https?:\/\/(?:\[[^\]]*\]|[^/:?#]*):(\d+)(?:[/?#]|$)/i.exec(text)?.[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535))
    return { problem: `${names.url} ${text}: the port ${port} is out of range (1 to 65535)` };
  try {
    return { url: new URL(text) };
  } catch {
    return { problem: `${names.url} ${text} is not a valid URL` };
  }
}
