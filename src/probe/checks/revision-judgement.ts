import { revision } from '../check-declarations/revision.js';
import { messagesOf } from '../check-message.js';
import { type CheckOutcome, judged } from '../probe-types.js';
import type { Negotiation } from '../session.js';

const message = messagesOf(revision);

/** Judges the handshake: the revision asked for (if any) is the one negotiated. Pure. */
export function judgeRevision(negotiation: Negotiation): CheckOutcome {
  const { negotiated } = negotiation;
  const details = [`negotiated ${negotiated} (${negotiation.how})`];
  if (negotiation.serverProtocolVersion !== undefined)
    details.push(
      `the server answered initialize with protocolVersion ${negotiation.serverProtocolVersion}; the probe applies the facts of ${negotiated}`,
    );
  if (negotiation.requested !== undefined && negotiation.requested !== negotiated) {
    const refusal = negotiation.refused ?? 'the server did not take it';
    return judged('fail', message('refused', { requested: negotiation.requested, refusal, negotiated }), details);
  }
  if (negotiation.refused !== undefined) details.push(`${negotiation.refused}; probed ${negotiated}`);
  return judged('pass', message('speaks', { negotiated }), details);
}
