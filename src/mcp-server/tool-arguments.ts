/**
 * Reading a tool's arguments: each a string (or absent) as its input schema says; a wrong type is a message saying
 * which argument and what it takes. The client's schema validation may not have run: the handler checks again.
 */

/** An optional string argument, or the message saying it must be one. */
export function optionalString(args: Readonly<Record<string, unknown>>, name: string): string | undefined | { readonly problem: string } {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  return { problem: `the argument ${name} is a string (it was ${Array.isArray(value) ? 'an array' : typeof value})` };
}

/** Whether a read argument is the message of a wrong one. */
export function isProblem(value: unknown): value is { readonly problem: string } {
  return typeof value === 'object' && value !== null && 'problem' in value;
}
