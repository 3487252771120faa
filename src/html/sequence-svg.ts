import { html } from './escape.js';

/**
 * A sequence diagram drawn as SVG from the mermaid text mcprely writes (src/review/mermaid.ts): two
 * participants, `C->>S:` requests, `S-->>C:` answers and `Note over C|S|C,S:` notes. Drawn here, not by the
 * mermaid package in the browser: the page needs no script and no network, the same rows give the same bytes,
 * and the picture is the diagram of review.md, line for line. Colours come from the page's stylesheet
 * (classes `seq-*`), so the light and dark schemes both apply.
 */
export function sequenceSvg(mermaid: string, title: string, id: string): string {
  const rows = mermaid
    .split('\n')
    .slice(1)
    .map(parseLine)
    .filter((row) => row !== undefined);
  const parts: string[] = [];
  let y = TOP + HEAD + GAP;
  for (const row of rows) {
    const span = row.kind === 'note' ? NOTE_SPAN[row.over] : { left: CLIENT_X, right: SERVER_X };
    const lines = wrap(row.text, Math.floor((span.right - span.left - 2 * PAD) / CHAR_WIDTH));
    const height = lines.length * LINE + 2 * PAD;
    if (row.kind === 'note') {
      parts.push(`<rect class="seq-note" x="${span.left}" y="${y}" width="${span.right - span.left}" height="${height}" rx="4"/>`);
      parts.push(textLines(lines, (span.left + span.right) / 2, y + PAD + LINE - 4));
    } else {
      const arrowY = y + height - PAD / 2;
      parts.push(textLines(lines, (CLIENT_X + SERVER_X) / 2, y + LINE - 2));
      const [from, to] = row.kind === 'request' ? [CLIENT_X, SERVER_X - 2] : [SERVER_X, CLIENT_X + 2];
      const marker = row.kind === 'request' ? `${id}-head` : `${id}-head-back`;
      parts.push(`<line class="seq-${row.kind}" x1="${from}" y1="${arrowY}" x2="${to}" y2="${arrowY}" marker-end="url(#${marker})"/>`);
    }
    y += height + GAP;
  }
  const height = y + HEAD + TOP;
  const lifelines = [CLIENT_X, SERVER_X]
    .map((x) => `<line class="seq-life" x1="${x}" y1="${TOP + HEAD}" x2="${x}" y2="${height - TOP - HEAD}"/>`)
    .join('');
  const heads = (
    [
      [CLIENT_X, 'Client'],
      [SERVER_X, 'Server'],
    ] as const
  )
    .flatMap(([x, name]) =>
      [TOP, height - TOP - HEAD].map(
        (top) =>
          `<rect class="seq-actor" x="${x - 60}" y="${top}" width="120" height="${HEAD}" rx="4"/>` +
          `<text class="seq-actor-name" x="${x}" y="${top + HEAD / 2 + 5}" text-anchor="middle">${name}</text>`,
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

type Row =
  | { readonly kind: 'request' | 'response'; readonly text: string }
  | { readonly kind: 'note'; readonly over: 'C' | 'S' | 'C,S'; readonly text: string };

function parseLine(line: string): Row | undefined {
  const text = line.trim();
  let match = /^C->>S: ?(.*)$/.exec(text);
  if (match !== null) return { kind: 'request', text: match[1]! };
  match = /^S-->>C: ?(.*)$/.exec(text);
  if (match !== null) return { kind: 'response', text: match[1]! };
  match = /^Note over (C,S|C|S): ?(.*)$/.exec(text);
  if (match !== null) return { kind: 'note', over: match[1] as 'C' | 'S' | 'C,S', text: match[2]! };
  return undefined; // participants
}

/** Lines of at most `width` characters, broken at spaces where one falls (a long word is cut). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let rest = text.trim();
  while (rest.length > width) {
    const space = rest.lastIndexOf(' ', width);
    const cut = space > width / 3 ? space : width;
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
const CLIENT_X = 140;
const SERVER_X = 580;
const TOP = 8;
const HEAD = 32;
const GAP = 10;
const PAD = 8;
const LINE = 17;
/** A generous width per character of 12 px text, so a label never overflows its box. */
const CHAR_WIDTH = 7.2;
const NOTE_SPAN: Readonly<Record<'C' | 'S' | 'C,S', { left: number; right: number }>> = {
  C: { left: 20, right: 300 },
  S: { left: 420, right: 700 },
  'C,S': { left: 60, right: 660 },
};
