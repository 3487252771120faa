/**
 * A number in a manifest must mean what it says. An integer beyond 2^53 cannot be held exactly (9007199254740993
 * reads as ...992), a number too large overflows to infinity, and one too small underflows to zero: each is refused
 * where it is written, instead of silently becoming another value. `.inf` and `.nan`, written as such, are left to
 * the schema.
 */
export function numberProblem(text: string, value: number): { template: string; fix: string } | undefined {
  if (Number.isNaN(value) || /inf/i.test(text)) return undefined;
  if (!Number.isFinite(value))
    return { template: 'The number {text} is too large: it overflows to infinity', fix: 'write a number below 2^53 (9007199254740991)' };
  if (value === 0 && /[1-9]/.test(text.replace(/[eE].*$/, '')))
    return { template: 'The number {text} is too small: it underflows to 0', fix: 'write 0, or a number that can be represented' };
  if (Number.isInteger(value) && !Number.isSafeInteger(value))
    return {
      template: 'The number {text} is beyond 2^53 (9007199254740991): it cannot be held exactly',
      fix: 'write a smaller number; no duration, count or capacity needs more',
    };
  return undefined;
}
