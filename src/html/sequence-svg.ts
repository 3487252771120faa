import { html } from './escape.js';

/**
 * A sequence diagram drawn as SVG from the mermaid text mcprely writes (src/review/mermaid.ts): its participants
 * (Client and Server, and a Proxy between them when the diagram has one), `C->>S:` requests, `S-->>C:` answers
 * and `Note over C|P|S|C,S:` notes, each label's `<br/>` a line break. Drawn here, not by the mermaid package in
 * the browser: the page needs no script and no network, the same rows give the same bytes, and the picture is
 * the diagram of review.md, line for line. Colours come from the page's stylesheet (classes `seq-*`), so the
 * light and dark schemes both apply.
 */
export function sequenceSvg(mermaid: string, title: string, id: string): string {
  const source = mermaid.split('\n').slice(1);
  const actors = participants(source);
  const x = (name: string): number => actors.find((actor) => actor.name === name)?.x ?? actors[0]!.x;
  const rows = source.map(parseLine).filter((row) => row !== undefined);
  const parts: string[] = [];
  let y = TOP + HEAD + GAP;
  for (const row of rows) {
    const span = row.kind === 'note' ? noteSpan(row.over.map(x)) : noteSpan([x(row.from), x(row.to)], 0);
    const width = Math.max(10, Math.floor((span.right - span.left - 2 * PAD) / CHAR_WIDTH));
    const lines = row.text.split(LINE_BREAK).flatMap((line) => wrap(line, width));
    const height = lines.length * LINE + 2 * PAD;
    if (row.kind === 'note') {
      parts.push(`<rect class="seq-note" x="${span.left}" y="${y}" width="${span.right - span.left}" height="${height}" rx="4"/>`);
      parts.push(textLines(lines, (span.left + span.right) / 2, y + PAD + LINE - 4));
    } else {
      const arrowY = y + height - PAD / 2;
      parts.push(textLines(lines, (span.left + span.right) / 2, y + LINE - 2));
      const [from, to] = [x(row.from), x(row.to)];
      const end = to > from ? to - 2 : to + 2;
      const marker = row.kind === 'request' ? `${id}-head` : `${id}-head-back`;
      parts.push(`<line class="seq-${row.kind}" x1="${from}" y1="${arrowY}" x2="${end}" y2="${arrowY}" marker-end="url(#${marker})"/>`);
    }
    y += height + GAP;
  }
  const height = y + HEAD + TOP;
  const lifelines = actors
    .map((actor) => `<line class="seq-life" x1="${actor.x}" y1="${TOP + HEAD}" x2="${actor.x}" y2="${height - TOP - HEAD}"/>`)
    .join('');
  const heads = actors
    .flatMap((actor) =>
      [TOP, height - TOP - HEAD].map(
        (top) =>
          `<rect class="seq-actor" x="${actor.x - 60}" y="${top}" width="120" height="${HEAD}" rx="4"/>` +
          `<text class="seq-actor-name" x="${actor.x}" y="${top + HEAD / 2 + 5}" text-anchor="middle">${html(actor.title)}</text>`,
      ),
    )
    .join('');
  return (
    `<svg class="seq" role="img" aria-labelledby="${id}-title" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" ` +
    `xmlns="http://www.w3.org/2000/svg"><title id="${id}-title">${html(title)}</title>` +
    `<defs>${arrowHead(`${id}-head`, 'seq-request')}${arrowHead(`${id}-head-back`, 'seq-response')}</defs>` +
    `${lifelines}${heads}${parts.join('')}</svg>`
  );
}

/** How mermaid breaks a line inside a message or a note (the only markup mcprely's labels hold). */
const LINE_BREAK = /<br\s*\/?>/;

interface Actor {
  readonly name: string;
  readonly title: string;
  readonly x: number;
}

/** The diagram's participants in their order, spread across the width (Client and Server without any line). */
function participants(source: readonly string[]): Actor[] {
  const declared = source.flatMap((line) => {
    const match = /^\s*participant (\w+)(?: as (.+))?$/.exec(line);
    return match === null ? [] : [{ name: match[1]!, title: (match[2] ?? match[1]!).trim() }];
  });
  const named =
    declared.length > 0
      ? declared
      : [
          { name: 'C', title: 'Client' },
          { name: 'S', title: 'Server' },
        ];
  const positions =
    ACTOR_X[named.length] ?? named.map((_, index) => (named.length === 1 ? WIDTH / 2 : 120 + (index * (WIDTH - 240)) / (named.length - 1)));
  return named.map((actor, index) => ({ ...actor, x: positions[index]! }));
}

/**
 * A note's box: over one participant NOTE_WIDTH wide about it, kept on the canvas; over two, both and `beyond`
 * either side (a message's label sits between its two participants: beyond 0).
 */
function noteSpan(over: readonly number[], beyond = 80): { left: number; right: number } {
  if (over.length === 1 || Math.min(...over) === Math.max(...over)) {
    const left = Math.min(Math.max(over[0]! - NOTE_WIDTH / 2, MARGIN), WIDTH - MARGIN - NOTE_WIDTH);
    return { left, right: left + NOTE_WIDTH };
  }
  return { left: Math.max(Math.min(...over) - beyond, MARGIN), right: Math.min(Math.max(...over) + beyond, WIDTH - MARGIN) };
}

type Row =
  | { readonly kind: 'request' | 'response'; readonly from: string; readonly to: string; readonly text: string }
  | { readonly kind: 'note'; readonly over: readonly string[]; readonly text: string };

function parseLine(line: string): Row | undefined {
  const text = line.trim();
  let match = /^(\w+)(-->>|->>)(\w+): ?(.*)$/.exec(text);
  if (match !== null) return { kind: match[2] === '->>' ? 'request' : 'response', from: match[1]!, to: match[3]!, text: match[4]! };
  match = /^Note over (\w+(?:,\w+)?): ?(.*)$/.exec(text);
  if (match !== null) return { kind: 'note', over: match[1]!.split(','), text: match[2]! };
  return undefined; // participants
}

/** Lines of at most `width` characters, broken at the last space that fits; only a word longer than a line is cut. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let rest = text.trim();
  while (rest.length > width) {
    const space = rest.lastIndexOf(' ', width);
    const cut = space > 0 ? space : width;
    lines.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  lines.push(rest);
  return lines;
}

function textLines(lines: readonly string[], x: number, firstBaseline: number): string {
  return lines
    .map((line, index) => `<text class="seq-label" x="${x}" y="${firstBaseline + index * LINE}" text-anchor="middle">${html(line)}</text>`)
    .join('');
}

function arrowHead(id: string, kind: string): string {
  const box = 'viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"';
  return `<marker id="${id}" ${box}><path class="${kind}-head" d="M0,0L10,5L0,10z"/></marker>`;
}

const WIDTH = 720;
const MARGIN = 20;
/** Where the participants stand: two as before, three with the proxy in the middle. */
const ACTOR_X: Readonly<Record<number, readonly number[]>> = { 2: [140, 580], 3: [120, 360, 600] };
const TOP = 8;
const HEAD = 32;
const GAP = 10;
const PAD = 8;
const LINE = 17;
/** A generous width per character of 12 px text, so a label never overflows its box. */
const CHAR_WIDTH = 7.2;
/** A note over one participant: 280 px holds LABEL_WIDTH (src/review/mermaid.ts) characters a line, unwrapped. */
const NOTE_WIDTH = 280;
