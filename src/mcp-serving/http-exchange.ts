import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type GuardedListener, refusalBody, refusalOf } from '../listener/request-guard.js';
import { fact } from '../spec/revision-facts.js';
import { isSpecVersion } from '../spec/revisions.js';
import { HTTP_HEADERS } from '../protocol/http-headers.js';
import type { McpHeaders, Refusal } from './request-envelope.js';

/** The most a POST body may hold (bytes): a client message, never a payload. */
export const MAX_BODY = 4 * 1024 * 1024;

/**
 * The HTTP status of a request refused before its method was served (streamable-http.mdx and basic/index.mdx of the
 * stateless revision: a malformed envelope, headers that contradict the body and an unsupported version are 400 Bad
 * Request; a method the server does not implement is 404 Not Found). Errors of a served method stay in the body of a 200.
 */
export const REFUSAL_STATUS: Readonly<Record<Refusal, number>> = {
  'malformed-envelope': 400,
  'header-mismatch': 400,
  'unsupported-version': 400,
  'method-not-found': 404,
};

/** A request's MCP headers, one value each (a repeated header is not one value: it is left out, so that it reads as missing). */
export function mcpHeaders(req: IncomingMessage): McpHeaders {
  const one = (name: string) => {
    const value = req.headers[name.toLowerCase()];
    return typeof value === 'string' ? value : undefined;
  };
  const protocolVersion = one(HTTP_HEADERS.protocolVersion);
  const method = one(HTTP_HEADERS.method);
  const name = one(HTTP_HEADERS.name);
  return {
    ...(protocolVersion === undefined ? {} : { protocolVersion }),
    ...(method === undefined ? {} : { method }),
    ...(name === undefined ? {} : { name }),
  };
}

/** Whether a request's MCP-Protocol-Version names a revision without sessions (where an Mcp-Session-Id is ignored). */
export function sessionless(headers: McpHeaders): boolean {
  const named = headers.protocolVersion?.trim();
  return isSpecVersion(named) && fact(named, 'http-sessions').value === false;
}

/** One SSE event as it goes on the wire. */
export function sseFrame(event: { readonly id?: string; readonly message: unknown }): string {
  return `${event.id === undefined ? '' : `id: ${event.id}\n`}data: ${JSON.stringify(event.message)}\n\n`;
}

/** A request's body; undefined once it passes `max` bytes (the rest is read and dropped); rejected when the client left mid-body. */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > max) return;
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
      else {
        chunks.length = 0;
        resolve(undefined);
      }
    });
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('close', () => reject(new Error('the client left before the end of its request')));
  });
}

/**
 * Answers a request whose Host or Origin the guard refuses (another name for this machine, a page of another origin:
 * DNS rebinding) with 403 and a JSON-RPC error, and tells the listener's owner; whether it was refused.
 */
export function refusedByGuard(guarded: GuardedListener, req: IncomingMessage, res: ServerResponse): boolean {
  const refusal = refusalOf(guarded.guard, req.headers.host, req.headers.origin);
  if (refusal === undefined) return false;
  guarded.refused(refusal);
  res.writeHead(403, { 'Content-Type': 'application/json', Connection: 'close' }).end(refusalBody(refusal));
  return true;
}

/** Where a listener listens. */
export interface ListenAt {
  readonly host: string;
  readonly port: number;
}

/** Listens on `at`; the endpoint's URL (`/mcp`, an IPv6 address in brackets). */
export function listenOn(server: Server, at: ListenAt): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      const address = server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve(`http://${host}:${address.port}/mcp`);
    });
  });
}
