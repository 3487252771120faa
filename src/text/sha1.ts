/**
 * SHA-1 in JavaScript, for the short texts the lint cache keys on (a file's severities, the user's rules): the same
 * hex digest as node:crypto's, without loading node:crypto (a good part of a start-up on Node 24), so a `--cache`
 * run whose files are all unchanged never loads it. File contents go to node:crypto (`hexDigest` in sha.ts).
 */
export function sha1Hex(text: string): string {
  const bytes = new TextEncoder().encode(text);
  // The message, a 1 bit, zeros, and its length in bits as 64 bits: a whole number of 64-byte blocks.
  const blocks = Math.ceil((bytes.length + 9) / 64);
  const words = new Uint32Array(blocks * 16);
  for (let i = 0; i < bytes.length; i++) words[i >> 2]! |= bytes[i]! << (24 - (i % 4) * 8);
  words[bytes.length >> 2]! |= 0x80 << (24 - (bytes.length % 4) * 8);
  words[words.length - 2] = Math.floor((bytes.length * 8) / 2 ** 32);
  words[words.length - 1] = (bytes.length * 8) >>> 0;
  const h = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
  const w = new Uint32Array(80);
  for (let block = 0; block < blocks; block++) {
    for (let t = 0; t < 16; t++) w[t] = words[block * 16 + t]!;
    for (let t = 16; t < 80; t++) w[t] = rotl(w[t - 3]! ^ w[t - 8]! ^ w[t - 14]! ^ w[t - 16]!, 1);
    let [a, b, c, d, e] = h as [number, number, number, number, number];
    for (let t = 0; t < 80; t++) {
      const [f, k] =
        t < 20
          ? [(b & c) | (~b & d), 0x5a827999]
          : t < 40
            ? [b ^ c ^ d, 0x6ed9eba1]
            : t < 60
              ? [(b & c) | (b & d) | (c & d), 0x8f1bbcdc]
              : [b ^ c ^ d, 0xca62c1d6];
      const next = (rotl(a, 5) + f + e + k + w[t]!) >>> 0;
      e = d;
      d = c;
      c = rotl(b, 30);
      b = a;
      a = next;
    }
    h[0] = (h[0]! + a) >>> 0;
    h[1] = (h[1]! + b) >>> 0;
    h[2] = (h[2]! + c) >>> 0;
    h[3] = (h[3]! + d) >>> 0;
    h[4] = (h[4]! + e) >>> 0;
  }
  return h.map((word) => word.toString(16).padStart(8, '0')).join('');
}

function rotl(value: number, bits: number): number {
  return ((value << bits) | (value >>> (32 - bits))) >>> 0;
}
