import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fragmentId, html } from '../../src/html/escape.js';
import { sequenceSvg, wrap } from '../../src/html/sequence-svg.js';
import { buildEvidence } from '../../src/evidence/build-evidence.js';
import { generateFixtures } from '../../src/fixtures/generate-fixtures.js';
import { loadManifest } from '../../src/manifest/load.js';
import { PAGE_BUDGET } from '../../src/review/render-review-html.js';
import { runFixture } from '../../src/simulator/run-fixture.js';
import { runCli } from '../helpers/run-cli.js';
import { hostileInputs } from '../hostile/hostile-inputs.js';
import { wideElements } from '../helpers/scroll-boxes.js';
import { sessionPage } from '../../src/audit/session-page.js';
import type { LiveEvidence } from '../../src/evidence/live-evidence.js';
import { judgeSession } from '../../src/judges/judge-session.js';
import { readTrace } from '../../src/judges/trace-format.js';

describe('the HTML page', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcprely-html-'));
  const manifest = join(dir, 'hostile.yaml');
  writeFileSync(
    manifest,
    [
      'mcprely: 1',
      'specVersion: "2026-07-28"',
      'server: { name: "a</title><script>x()</script>\\u202e", transports: [stdio] }',
      'operations:',
      '  - name: "a:b/c.d"',
      '    method: tools/call',
      '    description: "</pre><b>bold</b> & \\"quoted\\" <!-- not a comment"',
      '    sideEffect: none',
      '',
    ].join('\n'),
  );
  const run = runCli(['review', '-f', 'html', '-o', join(dir, 'review.html'), manifest]);
  const page = readFileSync(join(dir, 'review.html'), 'utf8');

  it('writes what the manifest says as text, never as markup, and shows a bidi override as an escape', () => {
    expect([0, 1], run.stderr).toContain(run.status);
    expect(page).not.toMatch(/<script>x|<b>bold|<!-- not/);
    expect(page).toContain('a&lt;/title&gt;&lt;script&gt;x()&lt;/script&gt;\\u202e');
    expect(page).toContain('&lt;/pre&gt;&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; &lt;!-- not a comment');
    expect(page).not.toContain('\u202e');
    // The operation's name becomes a fragment id of safe characters, and the contents link to it.
    expect(page).toContain('<section id="op-a_3a_b_2f_c_2e_d" class="operation">');
    expect(page).toContain('<a href="#op-a_3a_b_2f_c_2e_d">a:b/c.d</a>');
  });

  it('allows nothing to be fetched, and its one script runs by the hash its policy names', () => {
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1];
    expect(policy).toMatch(/^default-src 'none'; /);
    const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    expect(scripts).toHaveLength(1);
    expect(policy).toContain(`script-src 'sha256-${createHash('sha256').update(scripts[0]!).digest('base64')}'`);
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('puts every table and diagram in a scroll box of its own, named and reached by the keyboard', () => {
    const wide = wideElements(page);
    expect(wide.checked).toBeGreaterThan(2);
    expect(wide.unboxed).toEqual([]);
  });
});

describe('every table and diagram in a scroll box of its own (a narrow screen scrolls the box, not the page)', () => {
  /** A live run as the bundle shows it: a claim, a check, a file (what the real run brings is the live suite's). */
  const LIVE: LiveEvidence = {
    target: 'node server.mjs',
    transport: 'stdio',
    revision: '2025-11-25',
    date: '2026-12-05',
    checks: [{ id: 'progress', status: 'pass', summary: 'progress about every 250 ms' }],
    claims: [{ operation: 'search_docs', field: 'progress.intervalMs', value: '250', status: 'seen', check: 'progress', why: 'seen' }],
    exercised: true,
    drift: [],
    fixtures: { pass: 1, fail: 0, inconclusive: 0, 'not-observable': 0 },
    files: new Map([['live/probe.txt', 'probe']]),
  };

  it('the evidence page with a live run: the verdict, live, operation and artifact tables and every race diagram', async () => {
    const loaded = loadManifest('docs-search.yaml', readFileSync('fixtures/examples/docs-search.yaml'));
    if (!loaded.ok) throw new Error('the example should load');
    const runs = [];
    for (const fixture of generateFixtures(loaded)) runs.push(await runFixture(fixture));
    const page = buildEvidence(loaded, [], runs, 'x', LIVE).get('index.html')!;
    const wide = wideElements(page);
    expect(page).toContain('<section id="live">');
    // The verdict, 2 live tables, the artifacts, and each operation's wire and race tables and their diagrams.
    expect(wide.checked).toBeGreaterThan(10);
    expect(wide.unboxed).toEqual([]);
  });

  it('the page of a recorded session (audit --html, probe-client --html): the judges and every diagram', () => {
    const read = readTrace(readFileSync('test/golden/sessions/http-held-for-next-stream.jsonl', 'utf8'));
    if (!read.ok) throw new Error(JSON.stringify(read.problems));
    const verdict = judgeSession(read.transcript, { toleranceMs: 100, graceMs: 50, idleTimeoutMs: 1000 });
    const page = sessionPage({ trace: 'held.jsonl', header: read.header, verdict });
    const wide = wideElements(page);
    expect(wide.checked).toBeGreaterThan(2);
    expect(wide.unboxed).toEqual([]);
    // Each box and diagram is named by the failure's text, escaped once ("mcprely-no-such-request" in quotes).
    expect(page).toContain('aria-label="Sequence diagram: failed client-cancels-only-pending: a cancellation of id &quot;');
    expect(page).not.toMatch(/&amp;(quot|lt|gt|amp|#39);/);
  });
});

describe('sequence diagrams as SVG', () => {
  const mermaid = [
    'sequenceDiagram',
    '    participant C as Client',
    '    participant S as Server',
    '    C->>S: tools/call (id r1)',
    "    S-->>C: response <b> & 'quoted'",
    '    Note over C: the client gives up',
    '    Note over C,S: a long note that spans both lanes and runs on well past the width of one line of the diagram',
    '    Note over S: done',
  ].join('\n');
  const svg = sequenceSvg(mermaid, 'cancel <then> complete', 'd1');

  it('draws one arrow per message and one box per note, every label escaped', () => {
    expect(svg.match(/<line class="seq-request"/g)).toHaveLength(1);
    expect(svg.match(/<line class="seq-response"/g)).toHaveLength(1);
    expect(svg.match(/<rect class="seq-note"/g)).toHaveLength(3);
    expect(svg).toContain('response &lt;b&gt; &amp; &#39;quoted&#39;');
    expect(svg).toContain('<title id="d1-title">cancel &lt;then&gt; complete</title>');
    expect(svg).toMatch(/^<svg class="seq" role="img" aria-labelledby="d1-title" viewBox="0 0 720 (\d+)" width="720" height="\1"/);
  });

  it('wraps a label into lines of at most the width, losing no word', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'b', ' '), maxLength: 30 }), { maxLength: 8 }),
        fc.integer({ min: 4, max: 40 }),
        (words, width) => {
          const text = words.join(' ');
          const lines = wrap(text, width);
          for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
          expect(lines.join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('fragment ids', () => {
  it('are made of safe characters, and two names never share one', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        expect(fragmentId('op', a)).toMatch(/^op-[A-Za-z0-9_-]*$/);
        if (a !== b) expect(fragmentId('op', a)).not.toBe(fragmentId('op', b));
      }),
      { numRuns: 2000 },
    );
  });

  it('html escapes markup and control characters', () => {
    expect(html('<a href="x">\'&\'</a>\n')).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;\\n');
  });
});

describe('a page of many operations', () => {
  it('draws the first diagrams and embeds transcripts in order within its budget; the rest point to review.md and their files', async () => {
    const input = hostileInputs().find((candidate) => candidate.name === '100 operations')!;
    const loaded = loadManifest('many.yaml', input.bytes);
    if (!loaded.ok) throw new Error('the input should load');
    const runs = [];
    for (const fixture of generateFixtures(loaded)) runs.push(await runFixture(fixture));
    const bundle = buildEvidence(loaded, [], runs, 'x');
    const page = bundle.get('index.html')!;
    const rows = (JSON.parse(bundle.get('review.json')!) as { operations: { raceTables: { rows: unknown[] }[] }[] }).operations.flatMap(
      (operation) => operation.raceTables.flatMap((table) => table.rows),
    ).length;
    expect(rows).toBeGreaterThan(PAGE_BUDGET.diagrams);
    expect(page.match(/<figure data-diagram=/g)).toHaveLength(PAGE_BUDGET.diagrams);
    expect(page.match(/the diagram is in review\.md/g)).toHaveLength(rows - PAGE_BUDGET.diagrams);
    const embedded = [...page.matchAll(/<details><summary>.*?<\/summary><pre>([\s\S]*?)<\/pre><\/details><\/li>/g)];
    const linked = [...page.matchAll(/ <a href="(transcripts\/[^"]+)">transcript<\/a><\/li>/g)].map((match) => match[1]!);
    expect(embedded.length + linked.length).toBe(runs.length);
    expect(linked.length).toBeGreaterThan(0);
    // Embedded in order until the first that does not fit: every embedded transcript comes before every link.
    const links = [...page.matchAll(/ <a href="transcripts\/[^"]+">transcript<\/a><\/li>/g)];
    expect(embedded.at(-1)!.index).toBeLessThan(links[0]!.index);
    for (const file of linked) expect(bundle.has(decodeURIComponent(file)), file).toBe(true);
    expect(page.length).toBeLessThan(bundle.get('review.md')!.length * 4);
    expect(wideElements(page).unboxed).toEqual([]);
  }, 60_000);
});
