import type { Connection } from '../connection.js';
import { outcome, type CheckOutcome } from '../probe-types.js';
import { StdioConnection } from '../stdio-connection.js';

/**
 * What belongs to no single check, judged once everything has been seen: output that is not JSON-RPC (on
 * stdio a MUST of the transport), responses to ids the probe never sent, progress for tokens it never gave,
 * repeated responses, and ids that match a request only in another JSON type.
 */
export function wireHygiene(
  connection: Connection,
  calls: readonly { id: number; owner: string; repeated: number; mistyped: readonly string[]; failedOwner: boolean }[],
  endedAfterChecks: string | undefined,
): CheckOutcome {
  const problems: string[] = [];
  if (endedAfterChecks !== undefined) problems.push(`after the last check, ${endedAfterChecks}`);
  const garbage = connection.garbage;
  if (garbage.count > 0) {
    const where =
      connection instanceof StdioConnection
        ? 'on stdout (the stdio transport: the server MUST NOT write anything there that is not a valid MCP message)'
        : 'in response bodies or SSE events';
    problems.push(
      `the server wrote ${garbage.count} message(s) that are not JSON-RPC ${where}, e.g. ${JSON.stringify(garbage.samples[0])}`,
    );
  }
  for (const stray of connection.strays)
    problems.push(`during ${stray.owner}, the server sent ${stray.text}${stray.count === 1 ? '' : ` (${stray.count} times)`}`);
  if (connection.straysDropped > 0) problems.push(`and ${connection.straysDropped} more such message(s)`);
  // What a failed check already reported about its own requests is not counted twice.
  for (const call of calls.filter((candidate) => !candidate.failedOwner)) {
    if (call.repeated > 0) problems.push(`${call.repeated} more response(s) to request ${call.id} (${call.owner}) after the first`);
    for (const text of call.mistyped) problems.push(`the server sent ${text} (${call.owner}): ids must match in type and value`);
  }
  if (problems.length > 0) return outcome('fail', problems[0]!, problems.slice(1));
  return outcome('pass', 'every message was JSON-RPC and answered a request the probe sent, with its id in type and value');
}
