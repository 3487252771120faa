import { manifest } from '../helpers/lint-text.js';
import { ruleTester } from '../helpers/rule-tester.js';

// Lines: 1 mcprely, 2 specVersion, 3 server, 4 operations:, 5 "- name", 6 method, 7 the first field line.
const HTTP = '{ name: sites, transports: [streamable-http] }';
const BOTH = '{ name: sites, transports: [stdio, streamable-http] }';
const op = (fields: string, method = 'tools/call') => `  - name: build\n    method: ${method}\n${fields}`;
const V2025 = '2025-11-25';

ruleTester('cancel-http-signal', {
  valid: [
    {
      name: '2026 HTTP closes the stream',
      manifest: manifest({ server: HTTP, operations: op('    cancellation: { httpSignal: close-stream }') }),
    },
    {
      name: '2025 HTTP posts the notification',
      manifest: manifest({ specVersion: V2025, server: HTTP, operations: op('    cancellation: { httpSignal: notification }') }),
    },
    { name: 'stdio only needs no HTTP signal', manifest: manifest({ operations: op('    sideEffect: none') }) },
    {
      name: 'stdio only, even with a wrong HTTP signal left in',
      manifest: manifest({ operations: op('    cancellation: { httpSignal: notification }') }),
    },
    { name: 'an operation narrowed to stdio', manifest: manifest({ server: BOTH, operations: op('    transports: [stdio]') }) },
    {
      name: 'a request the client may not cancel',
      manifest: manifest({ specVersion: V2025, server: HTTP, operations: op('    cancellation: { clientMayCancel: false }') }),
    },
  ],
  invalid: [
    {
      name: '2026 HTTP posts a notification',
      manifest: manifest({ server: HTTP, operations: op('    cancellation: { httpSignal: notification }') }),
      findings: [{ path: '/operations/0/cancellation/httpSignal', line: 7, messageId: 'close-stream' }],
    },
    {
      name: '2025 HTTP only closes the stream',
      manifest: manifest({ specVersion: V2025, server: HTTP, operations: op('    cancellation: { httpSignal: close-stream }') }),
      findings: [{ path: '/operations/0/cancellation/httpSignal', line: 7, messageId: 'notification' }],
    },
    {
      name: 'no signal declared, reported at the cancellation key',
      manifest: manifest({ server: BOTH, operations: op('    cancellation: { stopsWork: checkpoint }') }),
      findings: [{ path: '/operations/0/cancellation/httpSignal', line: 7 }],
    },
    {
      name: 'an operation narrowed to HTTP on a stdio server',
      manifest: manifest({ operations: op('    transports: [streamable-http]\n    cancellation: { httpSignal: notification }') }),
      findings: [{ path: '/operations/0/cancellation/httpSignal', line: 8 }],
    },
    {
      name: 'inherited from defaults, reported where defaults say it',
      manifest: manifest({
        server: HTTP,
        defaults: '  cancellation: { httpSignal: notification }',
        operations: op('    sideEffect: none'),
      }),
      findings: [{ path: '/operations/0/cancellation/httpSignal', line: 5 }],
    },
  ],
});

ruleTester('cancel-disconnect-semantics', {
  valid: [
    {
      name: '2026: a disconnect cancels',
      manifest: manifest({ server: HTTP, operations: op('    cancellation: { disconnectIsCancellation: true }') }),
    },
    {
      name: '2025: a disconnect does not cancel',
      manifest: manifest({ specVersion: V2025, server: HTTP, operations: op('    cancellation: { disconnectIsCancellation: false }') }),
    },
    {
      name: '2025: not said, the revision default holds',
      manifest: manifest({ specVersion: V2025, server: HTTP, operations: op('    sideEffect: none') }),
    },
    {
      name: 'stdio has no response stream to close',
      manifest: manifest({ operations: op('    cancellation: { disconnectIsCancellation: false }') }),
    },
  ],
  invalid: [
    {
      name: '2026: work continues after a disconnect',
      manifest: manifest({ server: HTTP, operations: op('    cancellation: { disconnectIsCancellation: false }') }),
      findings: [
        { path: '/operations/0/cancellation/disconnectIsCancellation', line: 7, messageId: 'disconnect-cancels', severity: 'error' },
      ],
    },
    {
      name: '2026: not said (a MUST is declared)',
      manifest: manifest({ server: HTTP, operations: op('    sideEffect: none') }),
      findings: [
        { path: '/operations/0/cancellation/disconnectIsCancellation', line: 5, messageId: 'disconnect-cancels', severity: 'error' },
      ],
    },
    {
      name: '2025: a disconnect taken as cancellation is a warning',
      manifest: manifest({ specVersion: V2025, server: HTTP, operations: op('    cancellation: { disconnectIsCancellation: true }') }),
      findings: [
        { path: '/operations/0/cancellation/disconnectIsCancellation', line: 7, messageId: 'disconnect-continues', severity: 'warn' },
      ],
    },
  ],
});

ruleTester('cancel-server-sent', {
  valid: [
    {
      name: '2026: the server ends a stdio listen stream',
      manifest: manifest({ operations: op('    cancellation: { serverSendsCancelled: true }', 'subscriptions/listen') }),
    },
    {
      name: '2026: a listen stream on both transports (stdio is among them)',
      manifest: manifest({ server: BOTH, operations: op('    cancellation: { serverSendsCancelled: true }', 'subscriptions/listen') }),
    },
    {
      name: '2025: the server cancels its own sampling request',
      manifest: manifest({
        specVersion: V2025,
        operations: op('    direction: server-to-client\n    cancellation: { serverSendsCancelled: true }', 'sampling/createMessage'),
      }),
    },
    { name: 'no server-sent cancellation', manifest: manifest({ operations: op('    cancellation: { serverSendsCancelled: false }') }) },
  ],
  invalid: [
    {
      name: '2026: the server cancels a tool call',
      manifest: manifest({ operations: op('    cancellation: { serverSendsCancelled: true }') }),
      findings: [{ path: '/operations/0/cancellation/serverSendsCancelled', line: 7, messageId: 'listen-only' }],
    },
    {
      name: '2026: server-sent cancellation of a listen stream on HTTP only',
      manifest: manifest({ server: HTTP, operations: op('    cancellation: { serverSendsCancelled: true }', 'subscriptions/listen') }),
      findings: [{ path: '/operations/0/cancellation/serverSendsCancelled', line: 7, messageId: 'listen-only' }],
    },
    {
      name: '2025: the server cancels a client request, reported at the setting, not at the operation',
      manifest: manifest({ specVersion: V2025, operations: op('    sideEffect: none\n    cancellation: { serverSendsCancelled: true }') }),
      findings: [{ path: '/operations/0/cancellation/serverSendsCancelled', line: 8, messageId: 'own-requests-only' }],
    },
    {
      name: '2025: declared in defaults for every operation',
      manifest: manifest({
        specVersion: V2025,
        defaults: '  cancellation: { serverSendsCancelled: true }',
        operations: op('    sideEffect: none'),
      }),
      findings: [{ path: '/operations/0/cancellation/serverSendsCancelled', line: 5, messageId: 'own-requests-only' }],
    },
  ],
});

ruleTester('cancel-initialize', {
  valid: [
    {
      name: '2025: initialize is not cancellable',
      manifest: manifest({ specVersion: V2025, operations: op('    cancellation: { clientMayCancel: false }', 'initialize') }),
    },
    { name: '2026: no initialize operation', manifest: manifest({ operations: op('    sideEffect: none') }) },
    {
      name: '2025: other requests may be cancelled',
      manifest: manifest({ specVersion: V2025, operations: op('    cancellation: { clientMayCancel: true }') }),
    },
  ],
  invalid: [
    {
      name: '2025: cancellable initialize (the default)',
      manifest: manifest({ specVersion: V2025, operations: op('    sideEffect: none', 'initialize') }),
      findings: [{ path: '/operations/0/cancellation/clientMayCancel', line: 5, messageId: 'not-cancellable' }],
    },
    {
      name: '2025: initialize declared cancellable',
      manifest: manifest({ specVersion: V2025, operations: op('    cancellation: { clientMayCancel: true }', 'initialize') }),
      findings: [{ path: '/operations/0/cancellation/clientMayCancel', line: 7, messageId: 'not-cancellable' }],
    },
    {
      name: '2026: an initialize handshake',
      manifest: manifest({ operations: op('    cancellation: { clientMayCancel: false }', 'initialize') }),
      findings: [{ path: '/operations/0/method', line: 6, messageId: 'no-handshake' }],
    },
  ],
});

ruleTester('cancel-invalid-ignored', {
  valid: [
    { name: 'ignored', manifest: manifest({ operations: op('    cancellation: { invalidOrLate: ignore }') }) },
    {
      name: 'ignored on 2025 too',
      manifest: manifest({ specVersion: V2025, server: HTTP, operations: op('    cancellation: { invalidOrLate: ignore }') }),
    },
    {
      name: 'a Task, cancelled with tasks/cancel, never gets a cancellation notification to answer',
      manifest: manifest({ operations: op('    task: { used: true }\n    cancellation: { invalidOrLate: error-response }') }),
    },
  ],
  invalid: [
    {
      name: 'answered with an error',
      manifest: manifest({ operations: op('    cancellation: { invalidOrLate: error-response }') }),
      findings: [{ path: '/operations/0/cancellation/invalidOrLate', line: 7 }],
    },
    {
      name: 'not declared',
      manifest: manifest({ operations: op('    sideEffect: none') }),
      findings: [{ path: '/operations/0/cancellation/invalidOrLate', line: 5 }],
    },
  ],
});

ruleTester('cancel-suppress-response', {
  valid: [
    { name: 'suppressed', manifest: manifest({ operations: op('    cancellation: { suppressResponseAfterCancel: true }') }) },
    {
      name: 'a request the client never cancels',
      manifest: manifest({ specVersion: V2025, operations: op('    cancellation: { clientMayCancel: false }', 'initialize') }),
    },
    {
      name: 'a 2025 Task: tasks/cancel is terminal before its answer, so no result can follow',
      manifest: manifest({
        specVersion: V2025,
        operations: op('    task: { used: true }\n    cancellation: { suppressResponseAfterCancel: false }'),
      }),
    },
  ],
  invalid: [
    {
      name: 'a 2026 Task whose cancellation takes effect at the checkpoint, its result still handed out',
      manifest: manifest({ operations: op('    task: { used: true }\n    cancellation: { suppressResponseAfterCancel: false }') }),
      findings: [{ path: '/operations/0/cancellation/suppressResponseAfterCancel', line: 8, messageId: 'task' }],
    },
    {
      name: 'sent anyway',
      manifest: manifest({ operations: op('    cancellation: { suppressResponseAfterCancel: false }') }),
      findings: [{ path: '/operations/0/cancellation/suppressResponseAfterCancel', line: 7 }],
    },
    {
      name: 'not said, on 2025 HTTP as well',
      manifest: manifest({ specVersion: V2025, server: HTTP, operations: op('    sideEffect: none') }),
      findings: [{ path: '/operations/0/cancellation/suppressResponseAfterCancel', line: 5 }],
    },
  ],
});

ruleTester('cancel-work-stops', {
  valid: [
    {
      name: 'a request the client never cancels',
      manifest: manifest({
        specVersion: V2025,
        operations: op('    cancellation: { clientMayCancel: false, stopsWork: never }', 'initialize'),
      }),
    },
    { name: 'at a checkpoint', manifest: manifest({ operations: op('    cancellation: { stopsWork: checkpoint }') }) },
    { name: 'at once', manifest: manifest({ operations: op('    cancellation: { stopsWork: immediately }') }) },
  ],
  invalid: [
    {
      name: 'never',
      manifest: manifest({ operations: op('    cancellation: { stopsWork: never }') }),
      findings: [{ path: '/operations/0/cancellation/stopsWork', line: 7, severity: 'warn' }],
    },
  ],
});
