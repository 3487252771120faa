/** Colour only on a terminal; NO_COLOR (any non-empty value) turns it off, FORCE_COLOR (not 0) on. */
export function useColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['FORCE_COLOR'] !== undefined) return env['FORCE_COLOR'] !== '0' && env['FORCE_COLOR'] !== 'false';
  return stream.isTTY === true;
}
