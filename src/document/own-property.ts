/**
 * Sets a key from untrusted input on a plain object. Plain objects keep V8's fast property access
 * (null-prototype objects start in slow dictionary mode); a key named __proto__ is defined as an ordinary
 * own property instead of replacing the prototype, so no input can pollute a prototype.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
