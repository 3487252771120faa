import { manifest } from '../helpers/lint-text.js';
import { ruleTester } from '../helpers/rule-tester.js';

// The rules that cover the origin documents' remaining statements (issue 14). Lines: 1 mcprely, 2 specVersion,
// 3 server, 4 operations:, 5 "- name", 6 method, 7 and on the fields.
const op = (fields: string, method = 'tools/call') => `  - name: job\n    method: ${method}\n${fields}`;
const HTTP = '{ name: s, transports: [streamable-http] }';
const BOTH = '{ name: s, transports: [stdio, streamable-http] }';
const S25 = '2025-11-25';

ruleTester('progress-token-unique', {
  valid: [
    { name: 'a token per request', manifest: manifest({ operations: op('    progress: { emits: true, tokens: per-request }') }) },
    { name: 'unsaid', manifest: manifest({ operations: op('    progress: { emits: true }') }) },
    { name: 'no progress, nothing to share', manifest: manifest({ operations: op('    progress: { emits: false, tokens: shared }') }) },
    {
      name: 'a retry with a fresh token',
      manifest: manifest({
        operations: op('    progress: { emits: true }\n    retry: { automatic: on-transport-error, newProgressToken: true }'),
      }),
    },
  ],
  invalid: [
    {
      name: 'one token shared (2026-07-28)',
      manifest: manifest({ operations: op('    progress: { emits: true, tokens: shared }') }),
      findings: [{ path: '/operations/0/progress/tokens', line: 7, messageId: 'shared' }],
    },
    {
      name: 'one token shared (2025-11-25)',
      manifest: manifest({ specVersion: S25, operations: op('    progress: { emits: true, tokens: shared }') }),
      findings: [{ path: '/operations/0/progress/tokens', line: 7, messageId: 'shared' }],
    },
    {
      name: 'a retry reusing the token of the attempt it replaces',
      manifest: manifest({
        operations: op('    progress: { emits: true }\n    retry: { automatic: on-timeout, newProgressToken: false }'),
      }),
      findings: [{ path: '/operations/0/retry/newProgressToken', line: 8, messageId: 'retry-reuses' }],
    },
  ],
});

ruleTester('progress-on-request-stream', {
  valid: [
    {
      name: 'the request stream',
      manifest: manifest({ server: HTTP, operations: op('    progress: { emits: true, httpStream: request }') }),
    },
    { name: 'stdio only: no HTTP stream', manifest: manifest({ operations: op('    progress: { emits: true, httpStream: listen }') }) },
    {
      name: 'on 2025-11-25 any stream may carry it',
      manifest: manifest({ specVersion: S25, server: HTTP, operations: op('    progress: { emits: true, httpStream: listen }') }),
    },
  ],
  invalid: [
    {
      name: 'the listen stream on 2026-07-28 HTTP',
      manifest: manifest({ server: BOTH, operations: op('    progress: { emits: true, httpStream: listen }') }),
      findings: [{ path: '/operations/0/progress/httpStream', line: 7 }],
    },
  ],
});

ruleTester('progress-keepalive', {
  valid: [
    {
      name: 'shorter than the host idle limit',
      manifest: manifest({ server: HTTP, operations: op('    timeouts: { idleMs: 1000, maxMs: 60000 }') }),
    },
    {
      name: 'on stdio 10 minutes is below the 30-minute idle limit',
      manifest: manifest({ operations: op('    timeouts: { idleMs: 1000, maxMs: 600000 }') }),
    },
    {
      name: 'progress every 15 s',
      manifest: manifest({
        server: HTTP,
        operations: op('    timeouts: { idleMs: 60000, maxMs: 900000 }\n    progress: { emits: true, maxIntervalMs: 15000 }'),
      }),
    },
    {
      name: 'a task',
      manifest: manifest({ server: HTTP, operations: op('    timeouts: { idleMs: 60000, maxMs: 900000 }\n    task: { used: true }') }),
    },
    {
      name: 'an idle timeout of 0 is reported once, by deadline-idle-required, not compared with here',
      manifest: manifest({
        server: HTTP,
        operations: op('    timeouts: { idleMs: 0, maxMs: 900000 }\n    progress: { emits: true, maxIntervalMs: 15000 }'),
      }),
    },
  ],
  invalid: [
    {
      name: 'silent for longer than HTTP hosts allow',
      manifest: manifest({ server: HTTP, operations: op('    timeouts: { idleMs: 60000, maxMs: 900000 }') }),
      findings: [{ path: '/operations/0/progress/emits', line: 5, messageId: 'no-progress' }],
    },
    {
      name: 'progress without a promised interval',
      manifest: manifest({ server: HTTP, operations: op('    timeouts: { idleMs: 60000, maxMs: 900000 }\n    progress: { emits: true }') }),
      findings: [{ path: '/operations/0/progress/maxIntervalMs', line: 8, messageId: 'no-interval' }],
    },
    {
      name: 'progress less often than its own idle timeout, and above 20 s',
      manifest: manifest({
        server: HTTP,
        operations: op('    timeouts: { idleMs: 30000, maxMs: 900000 }\n    progress: { emits: true, maxIntervalMs: 45000 }'),
      }),
      findings: [
        { path: '/operations/0/progress/maxIntervalMs', line: 8, messageId: 'above-idle', severity: 'warn' },
        { path: '/operations/0/progress/maxIntervalMs', line: 8, messageId: 'above-twenty-seconds', severity: 'info' },
      ],
    },
    {
      name: 'progress less often than the HTTP host idle limit (its own idle longer still)',
      manifest: manifest({
        server: BOTH,
        operations: op('    timeouts: { idleMs: 900000, maxMs: 3600000 }\n    progress: { emits: true, maxIntervalMs: 400000 }'),
      }),
      findings: [
        { path: '/operations/0/progress/maxIntervalMs', line: 8, messageId: 'above-host' },
        { path: '/operations/0/progress/maxIntervalMs', line: 8, messageId: 'above-twenty-seconds' },
      ],
    },
  ],
});

ruleTester('progress-receiver-rate-limit', {
  valid: [
    { name: 'the receiver coalesces', manifest: manifest({ operations: op('    progress: { emits: true, receiverMinIntervalMs: 250 }') }) },
    {
      name: 'one update per round trip, the floor',
      manifest: manifest({ operations: op('    progress: { emits: true, receiverMinIntervalMs: 100 }') }),
    },
    { name: 'no progress', manifest: manifest({ operations: op('    progress: { emits: false }') }) },
  ],
  invalid: [
    {
      name: 'a tool call whose client does not rate-limit',
      manifest: manifest({ operations: op('    progress: { emits: true, minIntervalMs: 500 }') }),
      findings: [{ path: '/operations/0/progress/receiverMinIntervalMs', line: 7 }],
    },
    {
      name: "a server's request on 2025-11-25: the client sends, the server receives",
      manifest: manifest({
        specVersion: S25,
        operations: op('    direction: server-to-client\n    progress: { emits: true, minIntervalMs: 500 }', 'sampling/createMessage'),
      }),
      findings: [{ path: '/operations/0/progress/receiverMinIntervalMs', line: 8 }],
    },
    {
      name: "a receiver interval of zero is no rate limit (as the sender's zero is not)",
      manifest: manifest({ operations: op('    progress: { emits: true, minIntervalMs: 500, receiverMinIntervalMs: 0 }') }),
      findings: [{ path: '/operations/0/progress/receiverMinIntervalMs', line: 7, severity: 'warn' }],
    },
    {
      name: 'a receiver interval of 1 ms coalesces nothing',
      manifest: manifest({ operations: op('    progress: { emits: true, minIntervalMs: 500, receiverMinIntervalMs: 1 }') }),
      findings: [{ path: '/operations/0/progress/receiverMinIntervalMs', line: 7, severity: 'warn' }],
    },
    {
      name: 'a receiver interval of zero from the defaults',
      manifest: manifest({
        defaults: '  progress: { receiverMinIntervalMs: 0 }',
        operations: op('    progress: { emits: true, minIntervalMs: 500 }'),
      }),
      findings: [{ path: '/operations/0/progress/receiverMinIntervalMs', line: 5 }],
    },
  ],
});

ruleTester('deadline-ignore-late-response', {
  valid: [
    { name: 'ignored', manifest: manifest({ operations: op('    timeouts: { lateResponse: ignore }') }) },
    { name: 'unsaid', manifest: manifest({ operations: op('    timeouts: { idleMs: 1 }') }) },
  ],
  invalid: [
    {
      name: 'delivered',
      manifest: manifest({ operations: op('    timeouts: { lateResponse: deliver }') }),
      findings: [{ path: '/operations/0/timeouts/lateResponse', line: 7 }],
    },
    {
      name: 'delivered, from the defaults',
      manifest: manifest({ specVersion: S25, defaults: '  timeouts: { lateResponse: deliver }', operations: op('    sideEffect: none') }),
      findings: [{ path: '/operations/0/timeouts/lateResponse', line: 5 }],
    },
  ],
});

ruleTester('rounds-multi-round-trip', {
  valid: [
    {
      name: 'stop retrying, fresh tokens, state that expires',
      manifest: manifest({
        server: HTTP,
        operations: op(
          '    progress: { emits: true }\n' +
            '    rounds: { multiRoundTrip: true, cancelBetweenRounds: stop-retrying, freshProgressToken: true, requestStateTtlMs: 600000 }',
        ),
      }),
    },
    { name: 'no rounds on 2025-11-25', manifest: manifest({ specVersion: S25, operations: op('    rounds: { multiRoundTrip: false }') }) },
    // rounds-not-in-revision reports rounds on 2025-11-25; nothing of how its rounds go applies there.
    {
      name: 'rounds on 2025-11-25',
      manifest: manifest({ specVersion: S25, operations: op('    rounds: { multiRoundTrip: true, cancelBetweenRounds: notification }') }),
    },
  ],
  invalid: [
    {
      name: 'a cancellation between rounds, a reused token, no expiry',
      manifest: manifest({
        operations: op(
          '    progress: { emits: true }\n    rounds: { multiRoundTrip: true, cancelBetweenRounds: notification, freshProgressToken: false }',
        ),
      }),
      findings: [
        { path: '/operations/0/rounds/requestStateTtlMs', line: 8, messageId: 'state-expires' },
        { path: '/operations/0/rounds/cancelBetweenRounds', line: 8, messageId: 'cancel-between-rounds' },
        { path: '/operations/0/rounds/freshProgressToken', line: 8, messageId: 'fresh-progress-token' },
      ],
    },
  ],
});

ruleTester('rounds-not-in-revision', {
  valid: [
    {
      name: 'rounds on 2026-07-28',
      manifest: manifest({ server: HTTP, operations: op('    rounds: { multiRoundTrip: true, requestStateTtlMs: 600000 }') }),
    },
    { name: 'no rounds on 2025-11-25', manifest: manifest({ specVersion: S25, operations: op('    rounds: { multiRoundTrip: false }') }) },
  ],
  invalid: [
    {
      name: 'rounds on 2025-11-25',
      manifest: manifest({ specVersion: S25, operations: op('    rounds: { multiRoundTrip: true }') }),
      findings: [{ path: '/operations/0/rounds/multiRoundTrip', line: 7, messageId: 'not-in-revision' }],
    },
    {
      name: 'rounds on 2025-11-25, from the defaults',
      manifest: manifest({ specVersion: S25, defaults: '  rounds: { multiRoundTrip: true }', operations: op('    sideEffect: none') }),
      findings: [{ path: '/operations/0/rounds/multiRoundTrip', line: 5, messageId: 'not-in-revision' }],
    },
  ],
});

ruleTester('rounds-request-state-ttl', {
  valid: [
    { name: 'ten minutes', manifest: manifest({ operations: op('    rounds: { multiRoundTrip: true, requestStateTtlMs: 600000 }') }) },
    {
      name: 'a minute, the floor',
      manifest: manifest({ operations: op('    rounds: { multiRoundTrip: true, requestStateTtlMs: 60000 }') }),
    },
    { name: 'no rounds', manifest: manifest({ operations: op('    rounds: { multiRoundTrip: false, requestStateTtlMs: 5 }') }) },
    { name: 'not said (rounds-multi-round-trip warns)', manifest: manifest({ operations: op('    rounds: { multiRoundTrip: true }') }) },
  ],
  invalid: [
    {
      name: 'below a round trip',
      manifest: manifest({ operations: op('    rounds: { multiRoundTrip: true, requestStateTtlMs: 5 }') }),
      findings: [
        { path: '/operations/0/rounds/requestStateTtlMs', line: 7, messageId: 'below-round-trip', severity: 'error' },
        { path: '/operations/0/rounds/requestStateTtlMs', line: 7, messageId: 'below-request-timeout', severity: 'warn' },
      ],
    },
    {
      name: 'half a minute: less than the SDK waits for the same question, a warning',
      manifest: manifest({ operations: op('    rounds: { multiRoundTrip: true, requestStateTtlMs: 30000 }') }),
      findings: [{ path: '/operations/0/rounds/requestStateTtlMs', line: 7, messageId: 'below-request-timeout', severity: 'warn' }],
    },
  ],
});

ruleTester('cancel-json-response', {
  valid: [
    {
      name: 'SSE responses',
      manifest: manifest({
        server: '{ name: s, transports: [streamable-http], http: { responseMode: sse } }',
        operations: op('    progress: { emits: true }\n    cancellation: { stopsWork: immediately }'),
      }),
    },
    {
      name: 'JSON responses on stdio are no matter',
      manifest: manifest({
        server: '{ name: s, transports: [stdio], http: { responseMode: json } }',
        operations: op('    progress: { emits: true }'),
      }),
    },
    {
      name: 'JSON on 2025-11-25: the cancellation is a notification the handler is told of',
      manifest: manifest({
        specVersion: S25,
        server: '{ name: s, transports: [streamable-http], http: { responseMode: json } }',
        operations: op('    cancellation: { stopsWork: immediately }'),
      }),
    },
    {
      name: 'JSON, no progress, work that never stops',
      manifest: manifest({
        server: '{ name: s, transports: [streamable-http], http: { responseMode: json } }',
        operations: op('    cancellation: { stopsWork: never }'),
      }),
    },
    {
      name: 'a Task over JSON on 2026-07-28: it is cancelled with tasks/cancel, a request the JSON mode does not hide',
      manifest: manifest({
        server: '{ name: s, transports: [streamable-http], http: { responseMode: json } }',
        operations: op('    task: { used: true }\n    cancellation: { stopsWork: checkpoint }'),
      }),
    },
    {
      name: 'a Task over JSON on 2025-11-25',
      manifest: manifest({
        specVersion: S25,
        server: '{ name: s, transports: [streamable-http], http: { responseMode: json } }',
        operations: op('    task: { used: true }\n    cancellation: { stopsWork: immediately }'),
      }),
    },
  ],
  invalid: [
    {
      name: 'progress and a stopping claim over JSON on 2026-07-28',
      manifest: manifest({
        server: '{ name: s, transports: [streamable-http], http: { responseMode: json } }',
        operations: op('    progress: { emits: true }\n    cancellation: { stopsWork: checkpoint }'),
      }),
      findings: [
        { path: '/operations/0/progress/emits', line: 7, messageId: 'progress' },
        { path: '/operations/0/cancellation/stopsWork', line: 8, messageId: 'cancellation' },
      ],
    },
    {
      name: 'a Task over JSON still gets no progress on its response, but its cancellation is not in question',
      manifest: manifest({
        server: '{ name: s, transports: [streamable-http], http: { responseMode: json } }',
        operations: op('    task: { used: true }\n    progress: { emits: true }\n    cancellation: { stopsWork: checkpoint }'),
      }),
      findings: [{ path: '/operations/0/progress/emits', line: 8, messageId: 'progress' }],
    },
    {
      name: 'a plain request beside a Task over JSON: only the plain request',
      manifest: manifest({
        server: '{ name: s, transports: [streamable-http], http: { responseMode: json } }',
        operations:
          '  - name: reindex\n    method: tools/call\n    task: { used: true }\n    cancellation: { stopsWork: checkpoint }\n' +
          '  - name: build\n    method: tools/call\n    cancellation: { stopsWork: checkpoint }',
      }),
      findings: [{ path: '/operations/1/cancellation/stopsWork', line: 11, messageId: 'cancellation' }],
    },
  ],
});

ruleTester('cancel-handler-checks', {
  valid: [
    { name: 'cooperative', manifest: manifest({ operations: op('    cancellation: { stopsWork: immediately, handler: cooperative }') }) },
    {
      name: 'never stops, never checks: honest',
      manifest: manifest({ operations: op('    cancellation: { stopsWork: never, handler: never-checks }') }),
    },
  ],
  invalid: [
    {
      name: 'says it stops, never checks',
      manifest: manifest({ operations: op('    cancellation: { stopsWork: checkpoint, handler: never-checks }') }),
      findings: [{ path: '/operations/0/cancellation/handler', line: 7 }],
    },
  ],
});

ruleTester('recovery-listen-restore', {
  valid: [
    {
      name: 'filter restored, deduped by id, no tool name',
      manifest: manifest({
        server: HTTP,
        operations: op(
          '    recovery: { reconnect: { restoresFilter: true, carriesToolName: false }, dedupeBy: "event id" }',
          'subscriptions/listen',
        ),
      }),
    },
    { name: 'not a listen stream', manifest: manifest({ operations: op('    recovery: { reconnect: { newRequestId: true } }') }) },
  ],
  invalid: [
    {
      name: 'nothing restored, nothing deduped, a tool name carried',
      manifest: manifest({
        server: HTTP,
        operations: op('    recovery: { reconnect: { carriesToolName: true } }', 'subscriptions/listen'),
      }),
      findings: [
        { path: '/operations/0/recovery/dedupeBy', line: 7, messageId: 'dedupe', severity: 'warn' },
        { path: '/operations/0/recovery/reconnect/restoresFilter', line: 7, messageId: 'filter', severity: 'warn' },
        { path: '/operations/0/recovery/reconnect/carriesToolName', line: 7, messageId: 'tool-name', severity: 'error' },
      ],
    },
    {
      name: 'the filter explicitly not restored: an error, reported at the value (its wording: test/rules/messages.test.ts)',
      manifest: manifest({
        server: HTTP,
        operations: op(
          '    recovery: { reconnect: { restoresFilter: false, carriesToolName: false }, dedupeBy: id }',
          'subscriptions/listen',
        ),
      }),
      findings: [{ path: '/operations/0/recovery/reconnect/restoresFilter', line: 7, messageId: 'filter', severity: 'error' }],
    },
    {
      name: 'the filter explicitly not restored in the defaults: an error where the defaults say it',
      manifest: manifest({
        server: HTTP,
        defaults: '  recovery: { reconnect: { restoresFilter: false } }',
        operations: op('    recovery: { reconnect: { carriesToolName: false }, dedupeBy: id }', 'subscriptions/listen'),
      }),
      findings: [{ path: '/operations/0/recovery/reconnect/restoresFilter', line: 5, messageId: 'filter', severity: 'error' }],
    },
  ],
});

const MUTATION = [
  '    sideEffect: mutation',
  '    timeouts: { idleMs: 5000, maxMs: 60000 }',
  '    retry: { automatic: on-transport-error, maxAttempts: 3, backoff: { capMs: 8000 } }',
  '',
].join('\n');

ruleTester('idem-key-lifetime', {
  valid: [
    { name: 'a day', manifest: manifest({ operations: op(`${MUTATION}    idempotency: { keyArgument: k, keyTtlMs: 86400000 }`) }) },
    {
      name: 'exactly the retry window',
      manifest: manifest({ operations: op(`${MUTATION}    idempotency: { keyArgument: k, keyTtlMs: 196000 }`) }),
    },
    { name: 'not keyed', manifest: manifest({ operations: op('    sideEffect: none') }) },
  ],
  invalid: [
    {
      name: 'unsaid',
      manifest: manifest({ operations: op(`${MUTATION}    idempotency: { keyArgument: k }`) }),
      findings: [{ path: '/operations/0/idempotency/keyTtlMs', line: 10, messageId: 'missing', severity: 'warn' }],
    },
    {
      name: 'shorter than three attempts of a minute with 8 s between',
      manifest: manifest({ operations: op(`${MUTATION}    idempotency: { keyArgument: k, keyTtlMs: 195999 }`) }),
      findings: [{ path: '/operations/0/idempotency/keyTtlMs', line: 10, messageId: 'shorter-than-retries', severity: 'error' }],
    },
  ],
});

ruleTester('idem-in-flight', {
  valid: [
    {
      name: 'wait',
      manifest: manifest({ operations: op('    sideEffect: mutation\n    idempotency: { keyArgument: k, whileInFlight: wait }') }),
    },
    {
      name: 'conflict',
      manifest: manifest({ operations: op('    sideEffect: mutation\n    idempotency: { keyArgument: k, whileInFlight: conflict }') }),
    },
  ],
  invalid: [
    {
      name: 'unsaid',
      manifest: manifest({ operations: op('    sideEffect: mutation\n    idempotency: { keyArgument: k }') }),
      findings: [{ path: '/operations/0/idempotency/whileInFlight', line: 8, messageId: 'missing' }],
    },
    {
      name: 'a replay of a result that does not exist yet',
      manifest: manifest({ operations: op('    sideEffect: mutation\n    idempotency: { keyArgument: k, whileInFlight: replay }') }),
      findings: [{ path: '/operations/0/idempotency/whileInFlight', line: 8, messageId: 'unsafe' }],
    },
    {
      name: 'run again',
      manifest: manifest({
        specVersion: S25,
        operations: op('    sideEffect: mutation\n    idempotency: { keyArgument: k, whileInFlight: execute }'),
      }),
      findings: [{ path: '/operations/0/idempotency/whileInFlight', line: 8, messageId: 'unsafe' }],
    },
  ],
});

ruleTester('idem-key-scope', {
  valid: [
    {
      name: 'one tenant, global keys',
      manifest: manifest({ operations: op('    sideEffect: mutation\n    idempotency: { keyArgument: k, keyScope: global }') }),
    },
    {
      name: 'tenants, keys per tenant',
      manifest: manifest({
        server: '{ name: s, transports: [stdio], tenancy: multi }',
        operations: op('    sideEffect: mutation\n    idempotency: { keyArgument: k, keyScope: tenant }'),
      }),
    },
  ],
  invalid: [
    {
      name: 'tenants sharing global keys',
      manifest: manifest({
        server: '{ name: s, transports: [stdio], tenancy: multi }',
        operations: op('    sideEffect: mutation\n    idempotency: { keyArgument: k, keyScope: global }'),
      }),
      findings: [{ path: '/operations/0/idempotency/keyScope', line: 8 }],
    },
    {
      name: 'tenants, scope unsaid',
      manifest: manifest({
        server: '{ name: s, transports: [stdio], tenancy: multi }',
        operations: op('    sideEffect: mutation\n    idempotency: { keyArgument: k }'),
      }),
      findings: [{ path: '/operations/0/idempotency/keyScope', line: 8 }],
    },
  ],
});
