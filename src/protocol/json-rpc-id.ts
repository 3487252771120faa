/**
 * JSON-RPC ids are matched by type and value: a response whose id is the string "3" does not answer request
 * 3 (an integer). The key keeps the type, so the two never meet in a map.
 */
export function idKey(id: unknown): string {
  return `${typeof id}:${JSON.stringify(id)}`;
}

/** The same id in another JSON type (the string "3" for the integer 3, or the other way round), if there is one. */
export function looseKey(id: unknown): string | undefined {
  if (typeof id === 'string' && /^-?\d+$/.test(id)) return idKey(Number(id));
  if (typeof id === 'number') return idKey(String(id));
  return undefined;
}

export function describeId(id: unknown): string {
  if (typeof id === 'string') return `"${id}" (a string)`;
  if (typeof id === 'number') return `${id} (${Number.isInteger(id) ? 'an integer' : 'a number'})`;
  return `${JSON.stringify(id)} (${id === null ? 'null' : typeof id})`;
}
