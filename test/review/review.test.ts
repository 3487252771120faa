import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { review as reviewManifest } from '../../src/api/review.js';
import { runCli } from '../helpers/run-cli.js';

const validateReview = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
  JSON.parse(readFileSync('schemas/review.schema.json', 'utf8')),
);

interface Line {
  mark: string;
  text: string;
}
interface OperationJson {
  name: string;
  cancellationWire: Line[];
  raceTables: {
    transport: string;
    rows: { order: string; asRequired: boolean; mermaid: string; clientBehaviour: string; terminalState: string }[];
  }[];
  deadlines: { lines: Line[] };
  progress: { lines: Line[] };
  retry: { classification: string; lines: Line[] };
  idempotencyBoundary: { inside: string[]; outside: string[]; lines: Line[] };
  flowControl: { lines: Line[] };
  reconnect: { lines: Line[] };
  tasks: { lines: Line[] } | null;
  fixtures: { id: string; passed: boolean }[];
  verdict: { productionReady: boolean; refusals: { condition: string; detail: string }[] };
}

type ReviewJson = {
  productionReady: boolean;
  operations: OperationJson[];
  refusals: { condition: string }[];
  fixtures: { total: number; failed: number };
};

/** `mcprely review <file> --format json` as the built CLI runs it (the command's wiring). */
function reviewCli(file: string) {
  const run = runCli(['review', file, '--format', 'json']);
  return { status: run.status, review: JSON.parse(run.stdout) as ReviewJson, stderr: run.stderr };
}

/**
 * The same review in process (what the command prints is this outcome as JSON, and its exit code): the command's
 * wiring is held by the runs of the built CLI in this file, the verdicts here without a process each.
 */
async function reviewJson(file: string) {
  const outcome = await reviewManifest({ manifest: file });
  if (!outcome.ok) throw new Error(outcome.problem);
  return { status: outcome.exitCode, review: JSON.parse(JSON.stringify(outcome.review)) as ReviewJson };
}

/** The review of a manifest given as text (written to a temporary file first). */
async function reviewOf(text: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'mcprely-review-')), 'manifest.yaml');
  writeFileSync(file, text);
  return (await reviewJson(file)).review;
}

/** Every mark the review shows for an operation: wire rows, race rows, section lines and fixtures. */
function marks(operation: OperationJson): string[] {
  const lines = [
    operation.deadlines,
    operation.progress,
    operation.retry,
    operation.idempotencyBoundary,
    operation.flowControl,
    operation.reconnect,
    ...(operation.tasks === null ? [] : [operation.tasks]),
  ].flatMap((section) => section.lines);
  return [
    ...operation.cancellationWire.map((row) => row.mark),
    ...lines.map((line) => line.mark),
    ...operation.raceTables.flatMap((table) => table.rows.map((row) => (row.asRequired ? 'ok' : 'fail'))),
    ...operation.fixtures.map((fixture) => (fixture.passed ? 'ok' : 'fail')),
  ];
}

const EXAMPLES = [
  'fixtures/examples/billing.yaml',
  ...readdirSync('fixtures/examples/flawed')
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => `fixtures/examples/flawed/${file}`),
];

describe('mcprely review', () => {
  it('reviews the complete example: every checklist section per operation, a race table per transport, production-ready', () => {
    const run = runCli(['review', 'fixtures/examples/billing.yaml']);
    expect(run.status).toBe(0);
    const markdown = run.stdout;
    expect(markdown).toMatch(/^# Reliability review: billing$/m);
    expect(markdown).toMatch(/\*\*Verdict: ✅ production-ready\*\*/);
    for (const section of [
      'Verdict',
      'Cancellation wire',
      'Deadline policy',
      'Progress',
      'Retry classification',
      'Idempotency boundary',
      'Flow control',
      'Reconnect plan',
      'Durable tasks',
      'Lint findings',
      'Required fixtures',
    ]) {
      expect(markdown.match(new RegExp(`^### ${section}$`, 'gm'))?.length, section).toBe(4);
    }
    // Four operations on stdio and Streamable HTTP: two race tables each, a diagram per row; the two plain
    // requests have four rows each, the Task three (tasks/cancel then completion, disconnect then poll, TTL
    // expiry then tasks/get), the subscription two on stdio (client close, server end) and three on HTTP (and
    // drop then re-issue).
    expect(markdown.match(/^### Race table \(stdio, /gm)?.length).toBe(4);
    expect(markdown.match(/^### Race table \(streamable-http, /gm)?.length).toBe(4);
    expect(markdown.match(/^```mermaid\nsequenceDiagram$/gm)?.length).toBe(27);
    expect(markdown).not.toMatch(/❌/);
  });

  it('writes JSON that matches schemas/review.schema.json', () => {
    const { status, review, stderr } = reviewCli('fixtures/examples/billing.yaml');
    expect(status, `${stderr}\n${JSON.stringify(review.refusals)}`).toBe(0);
    expect(validateReview(review), JSON.stringify(validateReview.errors)).toBe(true);
    const charge = review.operations[0]!;
    expect(charge.retry.classification).toBe('CONDITIONAL');
    expect(charge.idempotencyBoundary.inside).toContain('key claim on idempotencyKey');
    expect(charge.idempotencyBoundary.outside).toEqual(['external call (protected: the same key is passed upstream)']);
    expect(charge.raceTables.map((table) => table.transport)).toEqual(['stdio', 'streamable-http']);
    expect(review.fixtures.failed).toBe(0);
  });

  it.each(EXAMPLES)('%s: the verdict agrees with every mark the review shows', async (file) => {
    const { status, review } = await reviewJson(file);
    expect(validateReview(review), JSON.stringify(validateReview.errors)).toBe(true);
    for (const operation of review.operations) {
      const failing = marks(operation).filter((mark) => mark === 'fail').length;
      // A ❌ anywhere refuses the operation, and every refusal is named.
      expect(operation.verdict.productionReady, `${operation.name}: ${failing} ❌ marks`).toBe(
        failing === 0 && operation.verdict.refusals.length === 0,
      );
      if (failing > 0) expect(operation.verdict.refusals.length).toBeGreaterThanOrEqual(1);
    }
    expect(status).toBe(review.productionReady ? 0 : 1);
    expect(review.productionReady).toBe(!file.includes('/flawed/'));
  });

  it.each([
    ['process-local-ledger.yaml', 'the ledger is process-local'],
    ['unbounded-progress-buffer.yaml', 'queue capacity is unspecified'],
    ['retry-mutation-without-key.yaml', 'retry is only "retry on timeout"'],
    ['retry-mutation-without-key.yaml', 'fixture send_invoice/lost-response-automatic-retry fails'],
    ['http-cancel-by-post.yaml', 'race table (streamable-http): cancel then complete'],
    ['proxy-buffers-sse.yaml', 'fixture search_documents/proxy-buffering-sse fails'],
    ['no-max-timeout.yaml', 'deadline policy: no maximum timeout: progress can keep the request open for ever'],
  ])('refuses production-ready for %s, naming "%s"', async (file, condition) => {
    const { status, review } = await reviewJson(`fixtures/examples/flawed/${file}`);
    expect(status).toBe(1);
    expect(review.productionReady).toBe(false);
    expect(review.operations[0]!.verdict.refusals.map((refusal) => refusal.condition)).toContain(condition);
  });

  it('names aliased results and an external effect outside the boundary', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-review-'));
    const file = join(dir, 'm.yaml');
    writeFileSync(
      file,
      readFileSync('fixtures/examples/billing.yaml', 'utf8')
        .replace('returns: defensive-copy', 'returns: shared-reference')
        .replace('boundary: upstream-key', 'boundary: none'),
    );
    const { review } = await reviewJson(file);
    const refusals = review.operations[0]!.verdict.refusals.map((refusal) => refusal.condition);
    expect(refusals).toEqual(
      expect.arrayContaining([
        'returned records alias mutable storage',
        'the external effect sits outside the atomic boundary',
        'fixture charge_account/caller-mutates-result-clean-replay fails',
      ]),
    );
  });

  it('shows in the race table what a flawed policy yields', async () => {
    const { review } = await reviewJson('fixtures/examples/flawed/http-cancel-by-post.yaml');
    const row = review.operations[0]!.raceTables[0]!.rows[0]!;
    expect(row).toMatchObject({ order: 'cancel then complete', terminalState: 'completed', asRequired: false });
    expect(row.mermaid).toContain('C->>S: POST notifications/cancelled (r1)');
  });

  it('counts in words that agree with the count, and draws the proxy as a participant of its own', () => {
    const file = 'fixtures/examples/flawed/proxy-buffers-sse.yaml';
    const run = runCli(['review', file]);
    // The command's exit code for a verdict that is not production-ready (the in-process cases read the outcome's).
    expect(run.status).toBe(1);
    const markdown = run.stdout;
    expect(markdown).toMatch(/ · 1 replica · 1 operation · fixtures: \d+ of \d+ passed /);
    const page = runCli(['review', file, '-f', 'html']).stdout;
    expect(page).toMatch(/ · 1 replica · 1 operation · fixtures: /);
    expect(markdown).not.toMatch(/\b1 (operations|replicas|refusals|fixtures)\b/);
    // The proxy closes the quiet stream: its notes are over the proxy, wrapped at words, never cut.
    expect(markdown).toContain('    participant P as Proxy\n    participant S as Server\n');
    expect(markdown).toContain('    Note over P: closes a connection idle for<br/>60000\u00a0ms, the server sends a<br/>');
    expect(markdown).not.toContain('Note over C,S');
    const fixtures = runCli(['fixtures', file, '-o', mkdtempSync(join(tmpdir(), 'mcprely-review-'))]);
    expect(fixtures.stdout).toMatch(/^\d+ fixtures for 1 operation written to /m);
  });

  it('writes each section from the policy it describes', async () => {
    const { review } = await reviewJson('fixtures/examples/billing.yaml');
    const [charge, balance, reindex] = review.operations;
    // A read needs no refetch after a drop, and draws no progress it does not send.
    expect(
      balance!.raceTables.every(
        (table) => table.rows[3]!.order === 'disconnect before the response' && !table.rows[3]!.mermaid.includes('notifications/progress'),
      ),
    ).toBe(true);
    expect(balance!.reconnect.lines.map((line) => line.text)).toContain('nothing to refetch: a read is simply issued again');
    // An operation the client never retries automatically says so, in the race table too.
    expect(reindex!.retry.lines.map((line) => line.text).join(' ')).toMatch(/no automatic retry/);
    // A Task's rows are its own: cancelled with tasks/cancel and polled by id, never notifications/cancelled.
    for (const table of reindex!.raceTables) {
      expect(table.rows.map((row) => row.order)).toEqual([
        'tasks/cancel then completion',
        'disconnect then poll',
        'TTL expiry then tasks/get',
      ]);
      for (const row of table.rows) {
        expect(row.mermaid).not.toMatch(/notifications\/cancelled/);
        expect(row.mermaid).toMatch(/tasks\/get/);
      }
    }
    // Each row can fail: a TTL shorter than the poll interval loses the result; a server that ends a subscription
    // silently leaves the client waiting; a store in memory loses the task across a drop.
    const variant = async (edit: (text: string) => string) =>
      (await reviewOf(edit(readFileSync('fixtures/examples/billing.yaml', 'utf8')))).operations;
    const shortTtl = (await variant((text) => text.replace('ttlMs: 86400000', 'ttlMs: 1000')))[2]!;
    expect(shortTtl.raceTables[0]!.rows[2]).toMatchObject({ order: 'TTL expiry then tasks/get', asRequired: false });
    const inMemory = (await variant((text) => text.replace('store: durable', 'store: in-memory')))[2]!;
    expect(inMemory.raceTables[0]!.rows[1]).toMatchObject({ order: 'disconnect then poll', asRequired: false });
    const silentEnd = (await variant((text) => text.replace('serverSendsCancelled: true', 'serverSendsCancelled: false')))[3]!;
    const stdioEnd = silentEnd.raceTables.find((table) => table.transport === 'stdio')!.rows[1]!;
    expect(stdioEnd).toMatchObject({ order: 'server end then client close', asRequired: false });
    // The rows of every kind, each failed by the policy flaw it exists for.
    const rowOf = (operations: OperationJson[], index: number, order: string) =>
      operations[index]!.raceTables.flatMap((table) => table.rows).find((row) => row.order === order)!;
    const ackFinal = await variant((text) => text.replace('ackIsTerminal: false', 'ackIsTerminal: true'));
    expect(rowOf(ackFinal, 2, 'tasks/cancel then completion').asRequired).toBe(false);
    const byNotification = await variant((text) => text.replace('cancelVia: tasks/cancel', 'cancelVia: notifications/cancelled'));
    expect(rowOf(byNotification, 2, 'tasks/cancel then completion').asRequired).toBe(false);
    // A subscription whose work runs on after the close and whose server does not suppress what it then sends.
    const answersAfterClose = await variant((text) =>
      text
        .replace('    suppressResponseAfterCancel: true\n', '    suppressResponseAfterCancel: false\n')
        .replace(
          'cancellation: { stopsWork: immediately, serverSendsCancelled: true }',
          'cancellation: { stopsWork: never, serverSendsCancelled: true }',
        ),
    );
    expect(rowOf(answersAfterClose, 3, 'client close then server end').asRequired).toBe(false);
    const toolName = await variant((text) => text.replace('carriesToolName: false', 'carriesToolName: true'));
    expect(rowOf(toolName, 3, 'drop then re-issue').asRequired).toBe(false);
    const delivers = await variant((text) =>
      text.replace('    cancelOnTimeout: true\n', '    cancelOnTimeout: true\n    lateResponse: deliver\n'),
    );
    expect(rowOf(delivers, 1, 'timeout then late response')).toMatchObject({
      asRequired: false,
      finalResponse: 'arrived late and was handed to the caller (must be ignored)',
    });
    expect(balance!.raceTables[0]!.rows[2]!.clientBehaviour).toMatch(/retries automatically/);
    expect(charge!.raceTables[0]!.rows[2]!.clientBehaviour).toMatch(/looks the key up/);
  });

  it('exits 2 with the place for a manifest that is not valid', () => {
    const run = runCli(['review', 'fixtures/examples/no-such.yaml']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^fixtures\/examples\/no-such\.yaml\n {2}0:0 {2}error {2}No file exists at this path/m);
  });
});
