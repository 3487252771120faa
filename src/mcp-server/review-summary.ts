import type { ChecklistLine, OperationReview, Review, Section } from '../review/review-types.js';
import { FINDING_SCHEMA, findingSummary } from './finding-summary.js';

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

const LINES = {
  type: 'array',
  items: {
    type: 'object',
    properties: { mark: { enum: ['ok', 'note', 'warn', 'fail'] }, text: { type: 'string' }, because: { type: 'string' } },
    required: ['mark', 'text'],
  },
} as const;
const SECTION = { type: 'object', properties: { lines: LINES }, required: ['lines'] } as const;
const STRINGS = { type: 'array', items: { type: 'string' } } as const;

export const REVIEW_OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    file: { type: 'string' },
    specVersion: { type: 'string' },
    productionReady: { type: 'boolean' },
    operations: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          method: { type: 'string' },
          sideEffect: { type: 'string' },
          transports: STRINGS,
          raceTables: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                transport: { type: 'string' },
                rows: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      order: { type: 'string' },
                      terminalState: { type: 'string' },
                      finalResponse: { type: 'string' },
                      clientBehaviour: { type: 'string' },
                      asRequired: { type: 'boolean' },
                    },
                    required: ['order', 'terminalState', 'finalResponse', 'clientBehaviour', 'asRequired'],
                  },
                },
              },
              required: ['transport', 'rows'],
            },
          },
          retry: {
            type: 'object',
            properties: { classification: { type: 'string' }, reason: { type: 'string' }, lines: LINES },
            required: ['classification', 'reason', 'lines'],
          },
          idempotencyBoundary: {
            type: 'object',
            properties: { inside: STRINGS, outside: STRINGS, lines: LINES },
            required: ['inside', 'outside', 'lines'],
          },
          flowControl: SECTION,
          reconnect: SECTION,
          deadlines: SECTION,
          progress: SECTION,
          fixtures: {
            type: 'object',
            properties: {
              total: { type: 'integer', minimum: 0 },
              passed: { type: 'integer', minimum: 0 },
              failing: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { id: { type: 'string' }, transport: { type: 'string' }, failures: STRINGS },
                  required: ['id', 'transport', 'failures'],
                },
              },
            },
            required: ['total', 'passed', 'failing'],
          },
          findings: { type: 'array', items: FINDING_SCHEMA },
          verdict: {
            type: 'object',
            properties: {
              productionReady: { type: 'boolean' },
              refusals: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { condition: { type: 'string' }, detail: { type: 'string' } },
                  required: ['condition', 'detail'],
                },
              },
            },
            required: ['productionReady', 'refusals'],
          },
        },
        required: [
          'name',
          'method',
          'sideEffect',
          'transports',
          'raceTables',
          'retry',
          'idempotencyBoundary',
          'flowControl',
          'reconnect',
          'deadlines',
          'progress',
          'fixtures',
          'findings',
          'verdict',
        ],
      },
    },
    otherFindings: { type: 'array', items: FINDING_SCHEMA },
    problems: {
      type: 'array',
      items: FINDING_SCHEMA,
      description: 'why the manifest could not be reviewed, each at its line and column (then operations is empty)',
    },
  },
  required: ['file', 'productionReady', 'operations', 'otherFindings', 'problems'],
} as const;
