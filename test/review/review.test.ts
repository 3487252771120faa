import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const validateReview = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(JSON.parse(readFileSync('schemas/review.schema.json', 'utf8')));

function reviewJson(file: string) {
  const run = runCli(['review', file, '--format', 'json']);
  const review = JSON.parse(run.stdout);
  return { status: run.status, review };
}

describe('mcprely review', () => {
  it('reviews the complete example: every checklist section per operation, race rows as mermaid, production-ready', () => {
    const run = runCli(['review', 'fixtures/examples/billing.yaml']);
    expect(run.status).toBe(0);
    const markdown = run.stdout;
    expect(markdown).toMatch(/^# Reliability review: billing$/m);
    expect(markdown).toMatch(/\*\*Verdict: ✅ production-ready\*\*/);
    for (const section of ['Verdict', 'Cancellation wire', 'Race table', 'Deadline policy', 'Retry classification', 'Idempotency boundary', 'Flow control', 'Reconnect plan', 'Durable tasks', 'Lint findings', 'Required fixtures']) {
      expect(markdown.match(new RegExp(`^### ${section}`, 'gm'))?.length, section).toBe(4);
    }
    expect(markdown.match(/^```mermaid\nsequenceDiagram$/gm)?.length).toBe(16);
    for (const order of ['cancel then complete', 'complete then cancel', 'timeout then late response', 'disconnect during progress']) expect(markdown).toContain(`| ${order} |`);
  });

  it('writes JSON that matches schemas/review.schema.json', () => {
    const { status, review } = reviewJson('fixtures/examples/billing.yaml');
    expect(status).toBe(0);
    expect(validateReview(review), JSON.stringify(validateReview.errors)).toBe(true);
    const charge = review.operations[0];
    expect(charge.retry.classification).toBe('CONDITIONAL');
    expect(charge.idempotencyBoundary.inside).toContain('key claim on idempotencyKey');
    expect(charge.idempotencyBoundary.outside).toEqual(['external call (protected: the same key is passed upstream)']);
    expect(charge.raceTable.rows.map((row: { asRequired: boolean }) => row.asRequired)).toEqual([true, true, true, true]);
  });

  it.each([
    ['process-local-ledger.yaml', 'the ledger is process-local'],
    ['unbounded-progress-buffer.yaml', 'queue capacity is unspecified'],
    ['retry-mutation-without-key.yaml', 'retry is only "retry on timeout"'],
    ['http-cancel-by-post.yaml', 'lint errors'],
  ])('refuses production-ready for %s, naming "%s"', (file, condition) => {
    const { status, review } = reviewJson(`fixtures/examples/flawed/${file}`);
    expect(status).toBe(1);
    expect(validateReview(review), JSON.stringify(validateReview.errors)).toBe(true);
    expect(review.productionReady).toBe(false);
    expect(review.operations[0].verdict.refusals.map((refusal: { condition: string }) => refusal.condition)).toContain(condition);
  });

  it('names aliased results and an external effect outside the boundary', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-review-'));
    const file = join(dir, 'm.yaml');
    writeFileSync(file, readFileSync('fixtures/examples/billing.yaml', 'utf8').replace('returns: defensive-copy', 'returns: shared-reference').replace('boundary: upstream-key', 'boundary: none'));
    const { review } = reviewJson(file);
    const refusals = review.operations[0].verdict.refusals.map((refusal: { condition: string }) => refusal.condition);
    expect(refusals).toEqual(expect.arrayContaining(['returned records alias mutable storage', 'the external effect sits outside the atomic boundary', 'lint errors']));
  });

  it('shows in the race table what a flawed policy yields', () => {
    const { review } = reviewJson('fixtures/examples/flawed/http-cancel-by-post.yaml');
    const row = review.operations[0].raceTable.rows[0];
    expect(row).toMatchObject({ order: 'cancel then complete', terminalState: 'completed', asRequired: false });
    expect(row.mermaid).toContain('C->>S: POST notifications/cancelled (r1)');
  });

  it('exits 2 with the place for a manifest that is not valid', () => {
    const run = runCli(['review', 'fixtures/examples/no-such.yaml']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/no-such\.yaml: error: No file exists at this path/);
  });
});
