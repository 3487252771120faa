/**
 * What the official client libraries are known to do, each behaviour with the source line that explains it: the
 * table behind docs/client-profiles.md, used to name the likely cause of a failure when the run says which library
 * the client is built on (`--client`). Read from the libraries' published code; each row is also asserted on the
 * wire by test/sdk/probe-client-clients.test.ts.
 */
export interface ClientBehaviour {
  /** The judge whose failure it explains. */
  readonly judge: string;
  /** Where it applies, when not everywhere: a transport, and which revision's rules (in words). */
  readonly when?: string;
  readonly says: string;
  /** The file and line in the published package. */
  readonly source: string;
}

export interface ClientProfile {
  readonly id: string;
  readonly library: string;
  readonly version: string;
  readonly behaviours: readonly ClientBehaviour[];
}

export const CLIENT_PROFILES: readonly ClientProfile[] = [
  {
    id: 'ts-sdk-v1',
    library: '@modelcontextprotocol/sdk (TypeScript SDK v1) Client',
    version: '1.32.2',
    behaviours: [
      {
        judge: 'client-enforces-maximum',
        says:
          'maxTotalTimeout is checked only when a progress notification arrives, and only with resetTimeoutOnProgress; ' +
          'when it is, the caller is rejected without notifications/cancelled, and the idle timer left running sends one ' +
          'an idle period later',
        source: 'dist/esm/shared/protocol.js:191-202, 462-472',
      },
      {
        judge: 'client-cancels-only-pending',
        says: "an AbortSignal's listener is never removed, so aborting after the answer still sends notifications/cancelled",
        source: 'dist/esm/shared/protocol.js:737-739',
      },
      {
        judge: 'client-resumes-only-pending',
        when: 'Streamable HTTP',
        says:
          "a cancelled request's SSE stream is still resumed (the stream's signal is the transport's), and a stream that " +
          'ended after a JSON-RPC error is resumed (only a result counts as the answer)',
        source: 'dist/esm/client/streamableHttp.js:217-219, 235-242',
      },
    ],
  },
  {
    id: 'ts-sdk-v2',
    library: '@modelcontextprotocol/client (TypeScript SDK v2) Client',
    version: '2.4.0',
    behaviours: [
      {
        judge: 'client-enforces-maximum',
        says:
          'maxTotalTimeout is checked only when a progress notification arrives, and only with resetTimeoutOnProgress; ' +
          'when it is, the caller is rejected and the server is never told (the later timeout returns early)',
        source: 'dist/src-CeKsbNLO.mjs:5814-5824, 6040-6047, 6201',
      },
      {
        judge: 'client-resumes-only-pending',
        when: 'Streamable HTTP, where the cancellation is a POSTed notification',
        says: "a cancelled request's SSE stream is still resumed: on this revision the cancellation is a POST and the stream keeps no signal of its own",
        source: 'dist/src-CeKsbNLO.mjs:6180; dist/index.mjs:1565-1656',
      },
      {
        judge: 'client-recovers-lost-request',
        when: 'Streamable HTTP, where a broken stream loses the request',
        says:
          'a call lost with its broken stream is never sent again: the caller waits for its timeout; the reconnect path has no ' +
          'revision check and may send Last-Event-ID',
        source: 'dist/index.mjs:1472-1541, 1565-1656',
      },
    ],
  },
  {
    id: 'python-sdk',
    library: 'mcp (Python SDK) Client',
    version: '2.3.0',
    behaviours: [
      {
        judge: 'client-resumes-only-pending',
        when: 'Streamable HTTP, where the cancellation is a POSTed notification',
        says: "a cancelled request's SSE stream is still resumed: the reconnection runs in the request's POST task, which the cancellation does not end",
        source: 'mcp/client/streamable_http.py:338-340, 353-355, 512-514',
      },
      {
        judge: 'client-recovers-lost-request',
        when: 'Streamable HTTP',
        says:
          'a stream dropped without event ids fails the call at once ("SSE stream ended without a response"): the server is ' +
          'not told (where a disconnect is no cancellation) and the call is not sent again (where a broken stream loses it)',
        source: 'mcp/client/streamable_http.py:511-520',
      },
      {
        judge: 'client-enforces-maximum',
        says: 'there is one timeout (read_timeout_seconds), not reset by progress: it is also the maximum; there is none by default',
        source: 'mcp/shared/dispatcher.py:76-134; mcp/client/client.py:303',
      },
    ],
  },
];

/** The library the client under test is built on (`--client <profile>[@version]`), and its version when the user gave it. */
export interface ClientUnderTest {
  readonly profile: string;
  readonly version?: string;
}

/** `--client ts-sdk-v2` or `ts-sdk-v2@2.3.1`; a message naming the profiles otherwise. */
export function parseClientUnderTest(text: string): ClientUnderTest | { readonly problem: string } {
  const at = text.indexOf('@');
  const profile = at === -1 ? text : text.slice(0, at);
  const version = at === -1 ? undefined : text.slice(at + 1);
  if (!CLIENT_PROFILES.some((one) => one.id === profile) || (version !== undefined && !/^[0-9A-Za-z.+-]{1,40}$/.test(version)))
    return {
      problem: `--client ${text}: give one of ${CLIENT_PROFILES.map((one) => one.id).join(', ')}, with @<version> when you know it (ts-sdk-v2@2.3.1)`,
    };
  return version === undefined ? { profile } : { profile, version };
}

/** The behaviours of `profile` that may explain a failure of `judge`. */
export function likelyCauses(profile: string | undefined, judge: string): readonly ClientBehaviour[] {
  return CLIENT_PROFILES.find((one) => one.id === profile)?.behaviours.filter((behaviour) => behaviour.judge === judge) ?? [];
}
