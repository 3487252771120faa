/** Random JSON-RPC traffic for the proxy's property tests, from a seed so that a failing case can be replayed. */

/** A seeded generator (mulberry32): a failing case can be replayed from its seed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEXTS = ['plain', 'héllo ✓', '日本語のテキスト', 'emoji 🧪🔥', 'quote " and \\ backslash', 'tab\there'];

/** Random JSON-RPC messages, one per line: requests, notifications, responses, some large, text of every width. */
export function messages(next: () => number, count: number, large: boolean): string[] {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    const text = TEXTS[Math.floor(next() * TEXTS.length)]!.repeat(
      large && next() < 0.05 ? 20_000 + Math.floor(next() * 60_000) : 1 + Math.floor(next() * 5),
    );
    const kind = next();
    const message =
      kind < 0.4
        ? { jsonrpc: '2.0', id: index, method: 'tools/call', params: { name: 'echo', arguments: { text } } }
        : kind < 0.7
          ? { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: index, progress: index, message: text } }
          : { jsonrpc: '2.0', id: index, result: { content: [{ type: 'text', text }] } };
    lines.push(JSON.stringify(message));
  }
  return lines;
}

/** The bytes cut at random places (inside multi-byte characters too). */
export function chunks(bytes: Buffer, next: () => number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = next() < 0.1 ? 1 + Math.floor(next() * 3) : 1 + Math.floor(next() * 70_000);
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}
