import { describe, expect, it } from 'vitest';
import type { CheckStatus } from '../../../src/live/outcome.js';
import { CallInbox } from '../../../src/probe/call-inbox.js';
import type { ProbeCheckDeclaration } from '../../../src/probe/probe-check-declaration.js';
import type { CheckOutcome } from '../../../src/probe/probe-types.js';
import type { Received } from '../../../src/probe/received.js';
import type { CancelledCall, RecordedCall } from '../../../src/probe/recorded-call.js';

/** One recorded case of a check's judgement and what it must conclude: the message id and its arguments, never the words. */
export interface JudgementCase<Input> {
  readonly name: string;
  readonly input: Input;
  readonly messageId: string;
  readonly data?: Readonly<Record<string, string | number>>;
  /** Facts the observation must hold (matched, not equal). */
  readonly observed?: Readonly<Record<string, unknown>>;
}

/**
 * A RuleTester for a probe check's judgement: cases by the status they must give. It rejects a bad table: a duplicate
 * case name, a message id or a status the declaration does not have, and a declared message no case exercises.
 */
export function testJudgement<Input>(
  declaration: ProbeCheckDeclaration,
  judge: (input: Input) => CheckOutcome,
  table: Partial<Record<CheckStatus, readonly JudgementCase<Input>[]>>,
  options: { readonly unexercised?: readonly string[] } = {},
): void {
  const cases = Object.entries(table).flatMap(([status, rows]) => (rows ?? []).map((row) => ({ ...row, status: status as CheckStatus })));
  describe(`the ${declaration.id} check's judgement of recorded sessions`, () => {
    it('is a well-formed table: unique names, declared statuses and message ids, every message exercised', () => {
      const names = cases.map((row) => row.name);
      expect(new Set(names).size, 'duplicate case names').toBe(names.length);
      for (const row of cases) {
        expect(declaration.outcomes, `${row.name}: status`).toContain(row.status);
        expect(Object.keys(declaration.messages), `${row.name}: messageId`).toContain(row.messageId);
      }
      const exercised = new Set(cases.map((row) => row.messageId));
      const missing = Object.keys(declaration.messages).filter((id) => !exercised.has(id) && !options.unexercised?.includes(id));
      expect(missing, 'declared messages no case exercises').toEqual([]);
    });
    for (const row of cases)
      it(`${row.status}: ${row.name}`, () => {
        const outcome = judge(row.input);
        expect({ status: outcome.status, messageId: outcome.messageId }).toEqual({ status: row.status, messageId: row.messageId });
        if (row.data !== undefined) expect(outcome.data).toEqual(row.data);
        if (row.observed !== undefined) expect(outcome.observed).toMatchObject(row.observed);
      });
  });
}

/** What the server sent about one request, as recorded: `at` ms after the request. */
export type Wire = readonly Received[];

export const progressAt = (at: number, progress: unknown, token = 'mcprely-1'): Received => ({
  at,
  message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress } },
});
export const resultAt = (at: number, result: Record<string, unknown> = { content: [] }, id: unknown = 1): Received => ({
  at,
  message: { jsonrpc: '2.0', id, result },
});
export const errorAt = (at: number, code: number, message: string, id: unknown = 1): Received => ({
  at,
  message: { jsonrpc: '2.0', id, error: { code, message } },
});

/** A request sent at 0 and the server's messages about it, taken in as the probe's inbox takes them. */
export function recordedCall(wire: Wire, ended?: { closed: string }, id = 1): RecordedCall {
  const inbox = new CallInbox();
  for (const received of wire) inbox.push(received);
  if (ended !== undefined) inbox.close(ended.closed);
  return { id, sentAt: 0, inbox };
}

/**
 * A request sent at 0, cancelled at `cancelledAt` with an in-flight allowance until `silentFrom`, and the server's
 * messages about it, taken in as the probe's inbox takes them (`onOtherStream`: carried by another request's stream).
 * `acknowledgedAt`: when the server's answer to the cancellation's POST came (its fence), as the probe's session passes it.
 */
export function cancelledCall(
  wire: readonly (Received & { readonly onOtherStream?: boolean })[],
  cancelledAt: number,
  silentFrom: number,
  acknowledgedAt?: number,
): CancelledCall {
  const inbox = new CallInbox();
  let cancelled = false;
  let acknowledged = false;
  const cancel = () => {
    inbox.cancel(cancelledAt, silentFrom);
    if (acknowledgedAt !== undefined) inbox.awaitFence();
    cancelled = true;
  };
  for (const received of wire) {
    if (!cancelled && received.at >= cancelledAt) cancel();
    if (!acknowledged && acknowledgedAt !== undefined && received.at >= acknowledgedAt) {
      inbox.fencePassed(acknowledgedAt);
      acknowledged = true;
    }
    if (received.onOtherStream === true) inbox.crossedStreams({ at: received.at, message: received.message, stream: 2 });
    else inbox.push(received);
  }
  if (!cancelled) cancel();
  if (!acknowledged && acknowledgedAt !== undefined) inbox.fencePassed(acknowledgedAt);
  return { id: 1, sentAt: 0, cancelledAt, inbox };
}
