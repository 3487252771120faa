import { InvalidArgumentError } from './errors.js';
import { requireNonEmptyString } from './validate-arguments.js';

/** An idempotency key or scope every ledger store accepts: 1 to 255 characters, no U+0000. */
export function requireKey(key: unknown, name = 'idempotencyKey'): string {
  const text = requireNonEmptyString(name, key);
  if (text.length > 255) throw new InvalidArgumentError(name, `must be at most 255 characters, not ${text.length}`);
  if (text.includes('\u0000')) throw new InvalidArgumentError(name, 'must not contain U+0000');
  return text;
}
