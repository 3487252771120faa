import { parsePointer } from './json-pointer.js';

/** What a fix does at a field: set a value, remove the key, or add an item to the list it holds. */
export type FixChange = { readonly set: unknown } | { readonly remove: true } | { readonly add: unknown };

/** The change alone, without anything a report added beside it (a replacement). */
export function changeOf(fix: FixChange): FixChange {
  if ('remove' in fix) return { remove: true };
  if ('add' in fix) return { add: fix.add };
  return { set: fix.set };
}

/**
 * The change in words, the field named as a manifest author writes it (an operation's field without the
 * `operations/<n>` before it; the message names the operation): `set retry.backoff.capMs to 8000`,
 * `remove cancellation.serverSendsCancelled`, `add "stdio" to server.transports`.
 */
export function describeChange(change: FixChange, pointer: string): string {
  const path = parsePointer(pointer);
  const field = (path[0] === 'operations' && path.length > 2 ? path.slice(2) : path).join('.') || 'the manifest';
  if ('remove' in change) return `remove ${field}`;
  if ('add' in change) return `add ${JSON.stringify(change.add)} to ${field}`;
  return `set ${field} to ${JSON.stringify(change.set)}`;
}
