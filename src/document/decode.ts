import { MAX_MANIFEST_BYTES } from './limits.js';
import { makeProblem, type DocumentProblem } from './problem.js';

export type Decoded =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly text: string; readonly problem: DocumentProblem };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/** Bytes to text: refuses oversize, binary and non-UTF-8 input with the place of the first bad byte. */
export function decodeManifestBytes(bytes: Uint8Array): Decoded {
  if (bytes.length > MAX_MANIFEST_BYTES) {
    return fail(
      '',
      'too-large',
      'The file is {size} bytes, over the {limit}-byte limit for a manifest',
      { size: bytes.length, limit: MAX_MANIFEST_BYTES },
      'split it into several manifests',
    );
  }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return fail('', 'utf16', 'The file is UTF-16 text; manifests are UTF-8', {}, 'save the file as UTF-8', 0);
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    const text = lenientUtf8.decode(bytes.subarray(0, nul));
    return fail(
      text,
      'binary',
      'The file is binary (a NUL byte at byte {offset}), not a YAML or JSON manifest',
      { offset: nul },
      'pass the manifest file itself',
      text.length,
    );
  }
  try {
    return { ok: true, text: strictUtf8.decode(bytes) };
  } catch {
    const bad = firstInvalidUtf8Byte(bytes);
    const text = lenientUtf8.decode(bytes);
    const offset = lenientUtf8.decode(bytes.subarray(0, bad)).length;
    return fail(
      text,
      'invalid-utf8',
      'The file is not valid UTF-8 (byte {offset} is 0x{byte})',
      { offset: bad, byte: bytes[bad]!.toString(16).padStart(2, '0') },
      'save the file as UTF-8',
      offset,
    );
  }
}

function fail(
  text: string,
  messageId: string,
  template: string,
  data: Record<string, string | number>,
  fix: string,
  offset?: number,
): Decoded {
  const at = offset === undefined ? {} : { start: offset, end: offset + 1 };
  return { ok: false, text, problem: makeProblem('file', { messageId, template, data, fix, ...at }) };
}

/** Index of the first byte that does not start or continue a valid UTF-8 sequence. */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    let length: number;
    let min = 0x80;
    let max = 0xbf;
    if (lead < 0x80) length = 1;
    else if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) min = 0xa0;
      if (lead === 0xed) max = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) min = 0x90;
      if (lead === 0xf4) max = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      const low = k === 1 ? min : 0x80;
      const high = k === 1 ? max : 0xbf;
      if (next === undefined || next < low || next > high) return i;
    }
    i += length;
  }
  return bytes.length;
}
