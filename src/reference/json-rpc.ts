import type { RequestId } from './validate-arguments.js';

export type SpecVersion = '2025-11-25' | '2026-07-28';
export type Transport = 'stdio' | 'streamable-http';

export interface JsonRpcNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

export interface JsonRpcResponse {
  readonly jsonrpc: '2.0';
  readonly id: RequestId;
  readonly result: unknown;
}

export const SPEC_VERSIONS: readonly SpecVersion[] = ['2025-11-25', '2026-07-28'];
export const TRANSPORTS: readonly Transport[] = ['stdio', 'streamable-http'];
