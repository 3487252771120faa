import { relative, sep } from 'node:path';

/**
 * `path.relative(base, path)` for two resolved paths (as `path.resolve` gives them): when `path` is `base` or lies
 * under it, the rest of the string, without `relative`'s resolving both again (a per-file cost in a run of many
 * files, most of a millisecond per hundred on a cold start); otherwise `relative` itself.
 */
export function relativeResolved(base: string, path: string): string {
  if (path === base) return '';
  const root = base.endsWith(sep) ? base : base + sep;
  return path.startsWith(root) ? path.slice(root.length) : relative(base, path);
}
