/**
 * Glob matching for configuration overrides, in time bounded by the lengths of the pattern and the path
 * whatever the pattern (a backtracking matcher takes exponential time on `*a*a*a…*c`). Supported: `**` (any
 * number of folders, none included), `*` (any characters within a name), `?` (one character), `[abc]`,
 * `[a-z]` and `[!…]` (one character of, or not of, a set), `{a,b}` (alternatives, nested, at most
 * MAX_ALTERNATIVES in all) and `\` to escape. Names starting with a dot are matched like any other.
 */
const MAX_ALTERNATIVES = 256;
const MAX_PATTERN = 1024;

export type Matcher = (path: string) => boolean;

/** One matcher for several patterns: true when any matches. Throws GlobError for a pattern it cannot take. */
export function globMatcher(patterns: readonly string[]): Matcher {
  const compiled = patterns.flatMap((pattern) => {
    checkGlob(pattern);
    return expandBraces(pattern).map(segmentsOf);
  });
  return (path) => {
    const names = path.split('/');
    return compiled.some((segments) => matchSegments(segments, names));
  };
}

export class GlobError extends Error {
  override readonly name = 'GlobError';
}

type Token = { readonly kind: 'text'; readonly character: string } | { readonly kind: 'any-one' } | { readonly kind: 'any' } | Set;
interface Set {
  readonly kind: 'set';
  readonly negated: boolean;
  readonly ranges: readonly (readonly [string, string])[];
}
type Segment = { readonly kind: 'globstar' } | { readonly kind: 'name'; readonly tokens: readonly Token[] };

/**
 * Refuses a pattern the matcher would read other than as written: a `[` whose set never closes within its
 * name, a `{` never closed, a range written backwards (`[z-a]`), a trailing lone `\`. Then the brace limits.
 */
export function checkGlob(pattern: string): void {
  if (pattern.length > MAX_PATTERN) throw new GlobError(`the glob is over ${MAX_PATTERN} characters`);
  const open: number[] = [];
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === '\\') {
      if (index + 1 >= pattern.length) throw new GlobError('the glob ends in a lone \\; write \\\\ for a backslash');
      index++;
    } else if (character === '{') open.push(index);
    else if (character === '}') open.pop();
    else if (character === '[') {
      const nameEnd = pattern.indexOf('/', index);
      const close = pattern.indexOf(']', index + 2);
      if (close === -1 || (nameEnd !== -1 && close > nameEnd))
        throw new GlobError(`the set opened by "[" at character ${index + 1} is never closed; write \\[ for a literal [`);
      let body = pattern.slice(index + 1, close);
      if (body.startsWith('!') || body.startsWith('^')) body = body.slice(1);
      for (let at = 0; at + 2 < body.length; at++)
        if (body[at + 1] === '-' && body[at]! > body[at + 2]!)
          throw new GlobError(
            `the range ${body[at]}-${body[at + 2]} at character ${index + 2 + at} is backwards; write ${body[at + 2]}-${body[at]}`,
          );
      index = close;
    }
  }
  if (open.length > 0) throw new GlobError(`the "{" at character ${open[0]! + 1} is never closed; close it, or write \\{ for a literal {`);
  expandBraces(pattern);
}

/** `a/{b,c{d,e}}/f` → the patterns it stands for; refuses more than MAX_ALTERNATIVES, or a pattern too long. */
export function expandBraces(pattern: string): string[] {
  if (pattern.length > MAX_PATTERN) throw new GlobError(`the glob is over ${MAX_PATTERN} characters`);
  const expanded: string[] = [];
  const pending = [pattern];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const group = firstGroup(current);
    if (group === undefined) expanded.push(current);
    else
      for (const alternative of group.alternatives)
        pending.push(current.slice(0, group.open) + alternative + current.slice(group.close + 1));
    if (expanded.length + pending.length > MAX_ALTERNATIVES)
      throw new GlobError(`the glob's braces stand for more than ${MAX_ALTERNATIVES} patterns`);
  }
  return expanded;
}

/** The first brace group at the top level: where it opens and closes, and its comma-separated alternatives. */
function firstGroup(pattern: string): { open: number; close: number; alternatives: string[] } | undefined {
  for (let open = 0; open < pattern.length; open++) {
    if (pattern[open] === '\\') {
      open++;
      continue;
    }
    if (pattern[open] !== '{') continue;
    const alternatives: string[] = [];
    let depth = 0;
    let from = open + 1;
    for (let index = open; index < pattern.length; index++) {
      const character = pattern[index];
      if (character === '\\') index++;
      else if (character === '{') depth++;
      else if (character === ',' && depth === 1) {
        alternatives.push(pattern.slice(from, index));
        from = index + 1;
      } else if (character === '}' && --depth === 0) {
        alternatives.push(pattern.slice(from, index));
        return { open, close: index, alternatives };
      }
    }
    return undefined;
  }
  return undefined;
}

function segmentsOf(pattern: string): Segment[] {
  const segments: Segment[] = [];
  for (const part of pattern.split('/')) {
    if (part === '**') {
      if (segments.at(-1)?.kind !== 'globstar') segments.push({ kind: 'globstar' });
      continue;
    }
    segments.push({ kind: 'name', tokens: tokensOf(part) });
  }
  return segments;
}

function tokensOf(part: string): Token[] {
  const tokens: Token[] = [];
  for (let index = 0; index < part.length; index++) {
    const character = part[index]!;
    if (character === '\\' && index + 1 < part.length) tokens.push({ kind: 'text', character: part[++index]! });
    else if (character === '*') {
      if (tokens.at(-1)?.kind !== 'any') tokens.push({ kind: 'any' });
    } else if (character === '?') tokens.push({ kind: 'any-one' });
    else if (character === '[' && part.indexOf(']', index + 2) !== -1) {
      const close = part.indexOf(']', index + 2);
      let body = part.slice(index + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      const ranges: [string, string][] = [];
      for (let at = 0; at < body.length; at++) {
        if (body[at + 1] === '-' && at + 2 < body.length) {
          ranges.push([body[at]!, body[at + 2]!]);
          at += 2;
        } else ranges.push([body[at]!, body[at]!]);
      }
      tokens.push({ kind: 'set', negated, ranges });
      index = close;
    } else tokens.push({ kind: 'text', character });
  }
  return tokens;
}

/** Folders: `**` matches any run of names, each other segment exactly one name. */
function matchSegments(segments: readonly Segment[], names: readonly string[]): boolean {
  return matchRun(
    segments,
    names,
    (segment) => segment.kind === 'globstar',
    (segment, name) => segment.kind === 'name' && matchName(segment.tokens, name),
  );
}

/** One name: `*` matches any run of characters, each other token exactly one. */
function matchName(tokens: readonly Token[], name: string): boolean {
  return matchRun(tokens, [...name], (token) => token.kind === 'any', matchesOne);
}

/**
 * Whether a pattern matches a whole sequence, where some pattern elements match any run of items and the rest
 * one item each: a dynamic programme over (element, position), linear in their product — no backtracking.
 */
function matchRun<P, I>(
  pattern: readonly P[],
  items: readonly I[],
  isRun: (element: P) => boolean,
  matchesOne: (element: P, item: I) => boolean,
): boolean {
  // reachable[j]: the elements so far can match the first j items.
  let reachable = new Array<boolean>(items.length + 1).fill(false);
  reachable[0] = true;
  for (const element of pattern) {
    const next = new Array<boolean>(items.length + 1).fill(false);
    if (isRun(element)) {
      let any = false;
      for (let j = 0; j <= items.length; j++) {
        any ||= reachable[j]!;
        next[j] = any;
      }
    } else {
      for (let j = 0; j < items.length; j++) if (reachable[j] && matchesOne(element, items[j]!)) next[j + 1] = true;
    }
    reachable = next;
  }
  return reachable[items.length]!;
}

function matchesOne(token: Token, character: string): boolean {
  if (token.kind === 'any-one') return true;
  if (token.kind === 'text') return token.character === character;
  if (token.kind === 'set') {
    const inside = token.ranges.some(([from, to]) => character >= from && character <= to);
    return inside !== token.negated;
  }
  return false;
}
