/**
 * js-yaml reports an unclosed bracket or quote where it gave up ("deficient indentation" on the next
 * line). This finds the opener on the lines before the failure so the error can point at the real cause.
 */
export interface UnclosedOpener {
  readonly offset: number;
  readonly what: string;
}

export function findUnclosedOpener(text: string, failureOffset: number): UnclosedOpener | undefined {
  const failureLineStart = text.lastIndexOf('\n', Math.max(0, failureOffset - 1)) + 1;
  const stack: { offset: number; char: string }[] = [];
  let quote: { offset: number; char: string } | undefined;
  let lineStart = true;
  for (let i = 0; i < failureLineStart; i++) {
    const char = text[i]!;
    if (char === '\n') {
      lineStart = true;
      continue;
    }
    if (quote !== undefined) {
      if (char === '\\' && quote.char === '"') i++;
      else if (char === quote.char) quote = undefined;
      continue;
    }
    if (char === '#' && (lineStart || /\s/.test(text[i - 1] ?? ' '))) {
      const end = text.indexOf('\n', i);
      i = (end === -1 ? failureLineStart : end) - 1;
      continue;
    }
    if ((char === '"' || char === "'") && (stack.length > 0 || /[\s:[{,-]/.test(text[i - 1] ?? ' '))) quote = { offset: i, char };
    else if (char === '[' || char === '{') stack.push({ offset: i, char });
    else if ((char === ']' || char === '}') && stack.length > 0) stack.pop();
    if (!/\s/.test(char)) lineStart = false;
  }
  if (quote !== undefined)
    return { offset: quote.offset, what: `the ${quote.char === '"' ? 'double' : 'single'}-quoted text opened here is never closed` };
  const opener = stack.at(-1);
  if (opener !== undefined)
    return { offset: opener.offset, what: `the ${opener.char === '[' ? 'list "["' : 'mapping "{"'} opened here is never closed` };
  return undefined;
}
