import { wire } from '../check-declarations/wire.js';
import { type CheckMessage, messagesOf } from '../check-message.js';
import { type CheckOutcome, judged } from '../probe-types.js';
import type { Transport } from '../../protocol/transports.js';

const message = messagesOf(wire);

/** What the connection recorded that belongs to no single check, once everything has been seen. */
export interface WireRecord {
  readonly transport: Transport;
  /** Output that is not JSON-RPC: how much, and the first few. */
  readonly garbage: { readonly count: number; readonly samples: readonly string[] };
  /** Messages about no request the probe sent (responses to unknown ids, progress for tokens never given), by the check running. */
  readonly strays: readonly { readonly owner: string; readonly text: string; readonly count: number }[];
  readonly straysDropped: number;
  /** Each request: its repeated responses and responses whose id matched only in another JSON type. */
  readonly calls: readonly { id: number; owner: string; repeated: number; mistyped: readonly string[]; failedOwner: boolean }[];
  /** How the connection ended after the last check, when no check reported it. */
  readonly endedAfterChecks?: string;
}

/**
 * What belongs to no single check, judged once everything has been seen: output that is not JSON-RPC (on
 * stdio a MUST of the transport), responses to ids the probe never sent, progress for tokens it never gave,
 * repeated responses, and ids that match a request only in another JSON type. Pure.
 */
export function judgeWireHygiene(record: WireRecord): CheckOutcome {
  const problems: CheckMessage[] = [];
  if (record.endedAfterChecks !== undefined) problems.push(message('endedAfterChecks', { why: record.endedAfterChecks }));
  const garbage = record.garbage;
  if (garbage.count > 0) {
    const found = { count: garbage.count, sample: String(JSON.stringify(garbage.samples[0])) };
    problems.push(record.transport === 'stdio' ? message('notJsonRpcOnStdout', found) : message('notJsonRpcOverHttp', found));
  }
  for (const stray of record.strays)
    problems.push(
      stray.count === 1
        ? message('stray', { owner: stray.owner, text: stray.text })
        : message('strayRepeated', { owner: stray.owner, text: stray.text, count: stray.count }),
    );
  if (record.straysDropped > 0) problems.push(message('straysDropped', { count: record.straysDropped }));
  // What a failed check already reported about its own requests is not counted twice.
  for (const call of record.calls.filter((candidate) => !candidate.failedOwner)) {
    if (call.repeated > 0) problems.push(message('repeatedResponses', { count: call.repeated, request: call.id, owner: call.owner }));
    for (const text of call.mistyped) problems.push(message('mistypedId', { text, owner: call.owner }));
  }
  if (problems.length > 0)
    return judged(
      'fail',
      problems[0]!,
      problems.slice(1).map((problem) => problem.text),
    );
  return judged('pass', message('clean', {}));
}
