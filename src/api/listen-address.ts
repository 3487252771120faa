import { isIP } from 'node:net';
import type { ListenAddress } from '../proxy/http-relay.js';

/** Where the relay listens when `--listen` is not given: loopback, a free port (printed at start). */
export const DEFAULT_LISTEN: ListenAddress = { host: '127.0.0.1', port: 0 };

/** `--listen`: `PORT`, `HOST:PORT` or `[IPv6]:PORT`; a message saying what is wrong otherwise. */
export function parseListen(text: string): ListenAddress | string {
  const match = /^(?:(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):)?(\d{1,5})$/.exec(text.trim());
  const port = Number(match?.[3]);
  if (match === null || port > 65535) return `--listen ${text}: give a port, or host:port (127.0.0.1:8931, [::1]:8931)`;
  const host = match[1] ?? match[2] ?? DEFAULT_LISTEN.host;
  if (match[1] !== undefined && isIP(host) !== 6) return `--listen ${text}: ${host} is not an IPv6 address`;
  return { host, port };
}
