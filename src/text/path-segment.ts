import { createHash } from 'node:crypto';

/** Longest segment written, in bytes (file systems allow 255; room is left for an extension). */
const MAX_SEGMENT_BYTES = 200;

/**
 * A name (an operation's, a fixture kind's) as one file or folder name: letters, digits, `_`, `-` and
 * inner dots kept; everything else, a leading dot and `%` itself percent-encoded (UTF-8), so the result is
 * never empty, `.` or `..`, never holds a separator, and two names never share a segment. A result over 200
 * bytes keeps its start and ends with a hash of the whole name.
 */
export function pathSegment(name: string): string {
  let encoded = '';
  for (const [index, character] of [...name].entries()) {
    if (/[A-Za-z0-9_-]/.test(character) || (character === '.' && index > 0)) encoded += character;
    else for (const byte of Buffer.from(character, 'utf8')) encoded += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (encoded === '') return '%00';
  if (encoded.endsWith('.')) encoded = `${encoded.slice(0, -1)}%2E`;
  if (encoded.length <= MAX_SEGMENT_BYTES) return encoded;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 16);
  return `${encoded.slice(0, MAX_SEGMENT_BYTES - 17)}~${hash}`;
}
