import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { sequenceSvg } from '../../src/html/sequence-svg.js';
import { loadManifest } from '../../src/manifest/load.js';
import { buildReview } from '../../src/review/build-review.js';
import { LABEL_WIDTH, sequenceDiagram } from '../../src/review/mermaid.js';
import { runScript } from '../../src/simulator/run-fixture.js';
import type { TranscriptEntry } from '../../src/simulator/transcript.js';

// Every transcript a review draws, as the race tables hand it to sequenceDiagram.
const drawn = vi.hoisted(() => [] as (readonly TranscriptEntry[])[]);
vi.mock('../../src/review/mermaid.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/review/mermaid.js')>();
  return {
    ...original,
    sequenceDiagram: (entries: readonly TranscriptEntry[]) => {
      drawn.push(entries);
      return original.sequenceDiagram(entries);
    },
  };
});

const EXAMPLES = [
  ...readdirSync('fixtures/examples')
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => `fixtures/examples/${name}`),
  ...readdirSync('fixtures/examples/flawed')
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => `fixtures/examples/flawed/${name}`),
];

/** What a note of a server part starts with. */
const SUBJECTS: Partial<Record<TranscriptEntry['lane'], string>> = { ledger: 'ledger: ', buffer: 'buffer: ', tasks: 'task store: ' };

const at = (lane: TranscriptEntry['lane'], text: string, time = 0): TranscriptEntry => ({ at: time, lane, text });

/** The rows of a diagram after its participants: one per transcript entry. */
function rows(diagram: string): string[] {
  return diagram
    .split('\n')
    .slice(1)
    .filter((line) => !/^\s*participant /.test(line))
    .map((line) => line.trim());
}

/** A row's label: what follows the row's first `: `. */
const labelOf = (row: string): string => row.slice(row.indexOf(': ') + 2);

/** The words a label shows, its line breaks and no-break spaces read as spaces. */
const shownWords = (label: string): string[] =>
  label
    .replace(/<br\/>/g, ' ')
    .replace(/\u00a0/g, ' ')
    .split(' ')
    .filter(Boolean);

/** Holds that a label shows the words of its text whole and in order (all of them, or the first ones and `…`), in lines of the width. */
function expectWholeWords(label: string, text: string): void {
  for (const line of label.split('<br/>')) if (line.includes(' ')) expect(line.length, line).toBeLessThanOrEqual(LABEL_WIDTH);
  const words = text.replace(/[;#]/g, ',').replace(/"/g, "'").replace(/[<>]/g, '').split(/\s+/).filter(Boolean);
  const shown = shownWords(label);
  if (shown.at(-1)?.endsWith('…') === true && !words.at(-1)?.endsWith('…')) {
    shown[shown.length - 1] = shown.at(-1)!.slice(0, -1);
    expect(shown, label).toEqual(words.slice(0, shown.length));
  } else expect(shown, label).toEqual(words);
}

describe('sequence diagrams of transcripts', () => {
  it('wraps a long note at words, keeping every word, where it was cut at 90 characters', () => {
    const text = 'closes a connection idle for 60000 ms, the server sends a keep-alive comment every 15000 ms on a quiet stream';
    const diagram = sequenceDiagram([at('client → server', '{"jsonrpc":"2.0","id":"r1","method":"tools/call"}'), at('proxy', text)]);
    const note = rows(diagram)[1]!;
    expect(note).toBe(
      'Note over P: closes a connection idle for<br/>60000\u00a0ms, the server sends a<br/>keep-alive comment every 15000\u00a0ms on<br/>a quiet stream',
    );
    expectWholeWords(labelOf(note), text);
  });

  it('bounds a very long label to a few lines that end at a word with an ellipsis', () => {
    const text = Array.from({ length: 60 }, (_, index) => `word${index}`).join(' ');
    const label = labelOf(rows(sequenceDiagram([at('server', text)]))[0]!);
    expect(label.split('<br/>').length).toBeLessThanOrEqual(5);
    expect(label).toMatch(/ word\d+…$/);
    expectWholeWords(label, text);
  });

  it("names every note's actor: the proxy is a participant of its own, the server's parts say which they are", () => {
    const diagram = sequenceDiagram([
      at('client → server', 'POST {"jsonrpc":"2.0","id":"r1","method":"tools/call"}'),
      at('proxy', 'nothing crossed the stream of r1 for 60000 ms: the proxy closes it'),
      at('ledger', 'connection A: the shared ledger file'),
      at('buffer', 'progress 1: buffered'),
      at('tasks', 'task t1: working'),
      at('client', 'gives up'),
      at('server', 'request r1: in_progress → completed'),
      at('server → client', '{"jsonrpc":"2.0","id":"r1","result":{}}'),
    ]);
    expect(diagram.split('\n').slice(0, 4)).toEqual([
      'sequenceDiagram',
      '    participant C as Client',
      '    participant P as Proxy',
      '    participant S as Server',
    ]);
    expect(rows(diagram)).toEqual([
      'C->>S: POST tools/call (id\u00a0r1)',
      'Note over P: nothing crossed the stream of r1 for<br/>60000\u00a0ms: the proxy closes it',
      'Note over S: ledger: connection A: the shared<br/>ledger file',
      'Note over S: buffer: progress 1: buffered',
      'Note over S: task store: task t1: working',
      'Note over C: gives up',
      'Note over S: request r1: in_progress → completed',
      'S-->>C: response (id\u00a0r1)',
    ]);
    expect(sequenceDiagram([at('client', 'x')])).not.toContain('participant P');
  });

  it('summarises a JSON-RPC message a note quotes, and leaves other braces as written', () => {
    const [held, refetch] = rows(
      sequenceDiagram([
        at(
          'proxy',
          'holds {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1}} in its buffer (1 held)',
        ),
        at('client', 'a new session, refetch tasks/get {taskId}'),
      ]),
    );
    expect(held).toBe('Note over P: holds notifications/progress in its<br/>buffer (1 held)');
    expect(refetch).toBe('Note over C: a new session, refetch tasks/get<br/>{taskId}');
  });

  it('draws the proxy as a third participant in the SVG, its notes over it, each line break a line', () => {
    const diagram = sequenceDiagram([
      at('client → server', 'POST {"jsonrpc":"2.0","id":"r1","method":"tools/call"}'),
      at('proxy', 'closes a connection idle for 60000 ms, the server sends a keep-alive comment every 15000 ms on a quiet stream'),
      at('server', 'the response stream of r1 broke (proxy or network)'),
    ]);
    const svg = sequenceSvg(diagram, 'drop', 'd2');
    expect(
      [...svg.matchAll(/<text class="seq-actor-name" x="(\d+)"[^>]*>([^<]+)<\/text>/g)].map((match) => `${match[2]}@${match[1]}`),
    ).toEqual(['Client@120', 'Client@120', 'Proxy@360', 'Proxy@360', 'Server@600', 'Server@600']);
    expect(svg.match(/<line class="seq-life"/g)).toHaveLength(3);
    const notes = [...svg.matchAll(/<rect class="seq-note" x="(\d+)"[^>]*width="(\d+)"/g)].map(
      (match) => Number(match[1]) + Number(match[2]) / 2,
    );
    expect(notes).toEqual([360, 560]); // over the proxy, over the server (kept on the canvas)
    const labels = [...svg.matchAll(/<text class="seq-label"[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);
    expect(labels).toEqual([
      'POST tools/call (id\u00a0r1)',
      'closes a connection idle for',
      '60000\u00a0ms, the server sends a',
      'keep-alive comment every 15000\u00a0ms on',
      'a quiet stream',
      'the response stream of r1 broke',
      '(proxy or network)',
    ]);
  });
});

describe.each(EXAMPLES)('the review diagrams of %s', (file) => {
  it('show every word of every label whole, in lines of the width, and each proxy note over the proxy', () => {
    const loaded = loadManifest(file, readFileSync(file));
    if (!loaded.ok) throw new Error(`${file} should load`);
    drawn.length = 0;
    buildReview(loaded, [], [], runScript);
    // A copy: drawing them again below records them again.
    const transcripts = [...drawn];
    expect(transcripts.length).toBeGreaterThan(0);
    for (const entries of transcripts) {
      const diagram = sequenceDiagram(entries);
      const proxied = entries.some((entry) => entry.lane === 'proxy');
      expect(diagram.includes('\n    participant P as Proxy\n'), diagram).toBe(proxied);
      expect(diagram).not.toContain('Note over C,S');
      const shown = rows(diagram);
      expect(shown).toHaveLength(entries.length);
      for (const [index, entry] of entries.entries()) {
        const row = shown[index]!;
        if (entry.lane === 'proxy') expect(row).toMatch(/^Note over P: /);
        // A quoted JSON-RPC message is summarised; every other label is its text, whole.
        if (!entry.text.includes('{"')) {
          expectWholeWords(labelOf(row), `${SUBJECTS[entry.lane] ?? ''}${entry.text}`);
        } else for (const line of labelOf(row).split('<br/>')) if (line.includes(' ')) expect(line.length).toBeLessThanOrEqual(LABEL_WIDTH);
      }
    }
  });
});
