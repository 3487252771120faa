import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BundleWriter } from '../../src/bundle-writer/bundle-writer.js';
import { RecordSpool } from '../../src/bundle-writer/record-spool.js';
import { jsonFile, jsonFileChunks } from '../../src/evidence/bundle.js';
import { buildEvidence, writeEvidenceFiles, writeRunFiles } from '../../src/evidence/build-evidence.js';
import { generateFixtures } from '../../src/fixtures/generate-fixtures.js';
import { type LoadedManifest, loadManifest } from '../../src/manifest/load.js';
import { runFixture, runScript } from '../../src/simulator/run-fixture.js';
import { outcomeOf, type RunOutcome } from '../../src/simulator/run-outcome.js';
import { renderEvidencePage } from '../../src/evidence/evidence-page.js';
import type { Finding, Severity } from '../../src/findings/finding.js';
import { lintLoadedManifest } from '../../src/lint/lint-file.js';
import { buildReview, reviewView } from '../../src/review/build-review.js';
import { evidenceInMemory, type OperationRecord, type ReviewEvidence } from '../../src/review/operation-evidence.js';
import type { OperationSummary } from '../../src/review/review-types.js';
import { renderReviewMarkdown } from '../../src/review/render-review-markdown.js';
import { bundledRules } from '../../src/rules/load-rules.js';
import { BASE } from './hostile-inputs.js';

const EXAMPLES = join(import.meta.dirname, '../../fixtures/examples');
const ruleSet = bundledRules();
const severities = new Map<string, Severity>(ruleSet.rules.map((rule) => [rule.definition.id, rule.definition.severity]));

const spools: RecordSpool<unknown>[] = [];
afterAll(() => {
  for (const spool of spools) spool.close();
});

/** Each operation's findings and outcomes written to a spool file and read back from it, as `evidence` does. */
function spooled(manifest: LoadedManifest, findings: readonly Finding[], outcomes: readonly RunOutcome[]): ReviewEvidence {
  const inMemory = evidenceInMemory(manifest, findings, outcomes);
  const records = RecordSpool.open() as RecordSpool<OperationRecord>;
  spools.push(records);
  for (let position = 0; position < inMemory.records.length; position++) records.push(inMemory.records.at(position));
  const summaryStore = () => {
    const store = RecordSpool.open() as RecordSpool<OperationSummary>;
    spools.push(store);
    return store;
  };
  return { records, otherFindings: inMemory.otherFindings, summaryStore };
}

describe('evidence written a file at a time: the same bytes as the bundle held whole', () => {
  it.each([
    ['nested values', { a: [1, { b: [], c: {} }, [[]]], d: 'x\ny', e: undefined, f: null }],
    ['undefined and functions in arrays', [undefined, () => 1, 2, { g: undefined }]],
    ['toJSON', { when: new Date(0), nested: { toJSON: () => 'shown' } }],
    ['scalars', 'text'],
    ['empty', {}],
  ])('jsonFileChunks is jsonFile in pieces: %s', (_name, value) => {
    for (const levels of [0, 1, 2, 3, 5]) expect([...jsonFileChunks(value, levels)].join('')).toBe(jsonFile(value));
  });

  it('a bundle streamed to disk as the runs end equals the bundle built in memory', async () => {
    const loaded = loadManifest('billing.yaml', new TextEncoder().encode(BASE));
    if (!loaded.ok) throw new Error('the example does not load');
    const runs = [];
    for (const fixture of generateFixtures(loaded)) runs.push(await runFixture(fixture));
    const whole = buildEvidence(loaded, [], runs, '../../billing.yaml');
    const directory = join(mkdtempSync(join(tmpdir(), 'mcprely-streamed-')), 'bundle');
    const writer = BundleWriter.open(directory);
    try {
      for (const run of runs) writeRunFiles(writer, run, '../../billing.yaml');
      writeEvidenceFiles(writer, loaded, spooled(loaded, [], runs.map(outcomeOf)));
      writer.commit();
    } finally {
      writer.close();
    }
    expect([...writer.keys()].sort()).toEqual([...whole.keys()].sort());
    for (const [file, content] of whole) expect(readFileSync(join(directory, file), 'utf8'), file).toBe(content);
  });

  it.each(['inventory.yaml', 'flawed/'])(
    'the review made an operation at a time is the review built whole, byte for byte: %s',
    async (name) => {
      const files = name.endsWith('/')
        ? readdirSync(join(EXAMPLES, name))
            .filter((file) => file.endsWith('.yaml'))
            .map((file) => join(EXAMPLES, name, file))
        : [join(EXAMPLES, name)];
      for (const file of files) {
        const loaded = loadManifest(file, readFileSync(file));
        if (!loaded.ok) continue;
        const findings = lintLoadedManifest(loaded, { ruleSet, severities });
        const runs = [];
        for (const fixture of generateFixtures(loaded)) runs.push(await runFixture(fixture));
        const review = buildReview(loaded, findings, runs, runScript);
        // The records read back from a file, as evidence reads them: the same bytes as the review held whole.
        const evidence = spooled(loaded, findings, runs.map(outcomeOf));
        const bundle = new Map<string, string>();
        writeEvidenceFiles(bundle, loaded, evidence);
        expect(bundle.get('review.json'), file).toBe(jsonFile(review));
        expect(bundle.get('review.md'), file).toBe(renderReviewMarkdown(review));
        const index = JSON.parse(bundle.get('index.json')!);
        const page = renderEvidencePage(
          index,
          review,
          () => 'transcript',
          undefined,
          () => undefined,
        );
        const lazyPage = renderEvidencePage(
          index,
          reviewView(loaded, evidence, runScript),
          () => 'transcript',
          undefined,
          () => undefined,
        );
        expect(lazyPage, file).toBe(page);
        expect(review.operations.length, file).toBeGreaterThan(0);
      }
    },
  );
});
