import { createRequire } from 'node:module';

type Crypto = typeof import('node:crypto');
let crypto: Crypto | undefined;

/**
 * node:crypto, loaded the first time something is hashed. Loading it is a good part of a start-up (about 8 ms
 * on Node 24, where it pulls in two dozen internal modules), which `lint` without --cache, SARIF or GitLab output
 * never needs to pay.
 */
function nodeCrypto(): Crypto {
  crypto ??= createRequire(import.meta.url)('node:crypto') as Crypto;
  return crypto;
}

/** The hex digest of `data` (sha1 or sha256): one-shot `crypto.hash` where the runtime has it (Node 20.12+). */
export function hexDigest(algorithm: 'sha1' | 'sha256', data: string | Uint8Array): string {
  const loaded = nodeCrypto() as Crypto & { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string };
  return loaded.hash === undefined ? loaded.createHash(algorithm).update(data).digest('hex') : loaded.hash(algorithm, data, 'hex');
}
