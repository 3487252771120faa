import type { PathSegment } from './source-map.js';

/** The path a JSON Pointer (RFC 6901, `/operations/0/timeouts`) names, `~1` and `~0` unescaped. */
export function parsePointer(pointer: string): PathSegment[] {
  if (pointer === '') return [];
  if (!pointer.includes('~')) return pointer.slice(1).split('/');
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}
