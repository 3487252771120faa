import type { ChecklistLine, OperationReview, Review, Section } from '../review/review-types.js';
import { FINDING_SCHEMA, findingSummary } from './finding-summary.js';
import { arrayOf, BOOLEAN, COUNT, objectSchema, STRING, STRINGS } from './json-schema.js';

/**
 * A review as `review_operation` gives it: per operation the sections a reviewer reads (race table per transport,
 * retry class, idempotency boundary, flow control, reconnect plan, deadlines, progress, verdict), without the
 * diagrams; and its output schema.
 */

function lines(section: Section): Record<string, unknown>[] {
  return section.lines.map((line: ChecklistLine) => ({
    mark: line.mark,
    text: line.text,
    ...(line.because === undefined ? {} : { because: line.because }),
  }));
}

function operationSummary(operation: OperationReview): Record<string, unknown> {
  const passed = operation.fixtures.filter((fixture) => fixture.passed).length;
  return {
    name: operation.name,
    method: operation.method,
    sideEffect: operation.sideEffect,
    transports: [...operation.transports],
    raceTables: operation.raceTables.map((table) => ({
      transport: table.transport,
      rows: table.rows.map((row) => ({
        order: row.order,
        terminalState: row.terminalState,
        finalResponse: row.finalResponse,
        clientBehaviour: row.clientBehaviour,
        asRequired: row.asRequired,
      })),
    })),
    retry: { classification: operation.retry.classification, reason: operation.retry.reason, lines: lines(operation.retry) },
    idempotencyBoundary: {
      inside: [...operation.idempotencyBoundary.inside],
      outside: [...operation.idempotencyBoundary.outside],
      lines: lines(operation.idempotencyBoundary),
    },
    flowControl: { lines: lines(operation.flowControl) },
    reconnect: { lines: lines(operation.reconnect) },
    deadlines: { lines: lines(operation.deadlines) },
    progress: { lines: lines(operation.progress) },
    fixtures: {
      total: operation.fixtures.length,
      passed,
      failing: operation.fixtures
        .filter((fixture) => !fixture.passed)
        .map((fixture) => ({ id: fixture.id, transport: fixture.transport, failures: [...fixture.failures] })),
    },
    findings: operation.findings.map((finding) => findingSummary(finding)),
    verdict: {
      productionReady: operation.verdict.productionReady,
      refusals: operation.verdict.refusals.map((refusal) => ({ condition: refusal.condition, detail: refusal.detail })),
    },
  };
}

/** The structured content of a review (`problems` empty). */
export function reviewSummary(review: Review): Record<string, unknown> {
  return {
    file: review.file,
    specVersion: review.specVersion,
    productionReady: review.productionReady,
    operations: review.operations.map(operationSummary),
    otherFindings: review.otherFindings.map((finding) => findingSummary(finding)),
    problems: [],
  };
}

const LINES = arrayOf(objectSchema({ mark: { enum: ['ok', 'note', 'warn', 'fail'] }, text: STRING, because: STRING }, ['mark', 'text']));
const SECTION = objectSchema({ lines: LINES });

const RACE_TABLE = objectSchema({
  transport: STRING,
  rows: arrayOf(
    objectSchema({ order: STRING, terminalState: STRING, finalResponse: STRING, clientBehaviour: STRING, asRequired: BOOLEAN }),
  ),
});

const OPERATION = objectSchema({
  name: STRING,
  method: STRING,
  sideEffect: STRING,
  transports: STRINGS,
  raceTables: arrayOf(RACE_TABLE),
  retry: objectSchema({ classification: STRING, reason: STRING, lines: LINES }),
  idempotencyBoundary: objectSchema({ inside: STRINGS, outside: STRINGS, lines: LINES }),
  flowControl: SECTION,
  reconnect: SECTION,
  deadlines: SECTION,
  progress: SECTION,
  fixtures: objectSchema({
    total: COUNT,
    passed: COUNT,
    failing: arrayOf(objectSchema({ id: STRING, transport: STRING, failures: STRINGS })),
  }),
  findings: arrayOf(FINDING_SCHEMA),
  verdict: objectSchema({ productionReady: BOOLEAN, refusals: arrayOf(objectSchema({ condition: STRING, detail: STRING })) }),
});

export const REVIEW_OUTPUT_SCHEMA = objectSchema(
  {
    file: STRING,
    specVersion: STRING,
    productionReady: BOOLEAN,
    operations: arrayOf(OPERATION),
    otherFindings: arrayOf(FINDING_SCHEMA),
    problems: {
      ...arrayOf(FINDING_SCHEMA),
      description: 'why the manifest could not be reviewed, each at its line and column (then operations is empty)',
    },
  },
  ['file', 'productionReady', 'operations', 'otherFindings', 'problems'],
);
