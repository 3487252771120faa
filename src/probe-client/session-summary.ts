import type { SessionIndex } from '../judges/session-requests.js';
import { META_KEYS } from '../protocol/meta-keys.js';
import type { JudgedSession } from './scenario-outcomes.js';
import { asRecord } from '../protocol/message-guards.js';
import type { TraceTransport } from '../protocol/transports.js';

/** What a report says of one session before its scenarios: where it is, what it spoke, and who the client said it was. */
export interface SessionSummary {
  readonly label: string;
  readonly transport: TraceTransport;
  /** The revision the session spoke (its handshake's, or its envelope's); absent when it never showed one. */
  readonly revision?: string;
  /** The client's own `clientInfo` (name and version), as it sent it; absent when it sent none. */
  readonly clientInfo?: string;
}

/** The first `clientInfo` the client sent: `initialize`'s, or a request envelope's. */
function clientInfoOf(session: SessionIndex): string | undefined {
  for (const request of session.requests) {
    if (request.from !== 'client') continue;
    const info = asRecord(request.params['clientInfo']) ?? asRecord(asRecord(request.params['_meta'])?.[META_KEYS.clientInfo]);
    if (info === undefined) continue;
    const name = typeof info['name'] === 'string' ? info['name'] : '(no name)';
    return typeof info['version'] === 'string' ? `${name} ${info['version']}` : name;
  }
  return undefined;
}

export function sessionSummary({ label, verdict }: JudgedSession): SessionSummary {
  const clientInfo = clientInfoOf(verdict.session);
  return {
    label,
    transport: verdict.session.transcript.transport,
    ...(verdict.session.revision === undefined ? {} : { revision: verdict.session.revision }),
    ...(clientInfo === undefined ? {} : { clientInfo }),
  };
}
