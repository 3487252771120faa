import { manifest } from '../helpers/lint-text.js';
import { ruleTester } from '../helpers/rule-tester.js';

const HTTP = '{ name: sites, transports: [streamable-http] }';
const BOTH = '{ name: sites, transports: [stdio, streamable-http] }';
const op = (fields: string) => `  - name: build\n    method: tools/call\n${fields}`;

ruleTester('cancel-http-signal', {
  valid: [
    { name: '2026 HTTP closes the stream', manifest: manifest({ server: HTTP, operations: op('    cancellation: { httpSignal: close-stream }') }) },
    { name: '2025 HTTP posts the notification', manifest: manifest({ specVersion: '2025-11-25', server: HTTP, operations: op('    cancellation: { httpSignal: notification }') }) },
    { name: 'stdio only needs no HTTP signal', manifest: manifest({ operations: op('    sideEffect: none') }) },
    { name: 'an operation narrowed to stdio', manifest: manifest({ server: BOTH, operations: op('    transports: [stdio]') }) },
    { name: 'a request the client may not cancel', manifest: manifest({ specVersion: '2025-11-25', server: HTTP, operations: op('    cancellation: { clientMayCancel: false }') }) },
  ],
  invalid: [
    { name: '2026 HTTP posts a notification', manifest: manifest({ server: HTTP, operations: op('    cancellation: { httpSignal: notification }') }), findings: [{ path: '/operations/0/cancellation/httpSignal', line: 7, messageId: 'close-stream' }] },
    { name: '2025 HTTP only closes the stream', manifest: manifest({ specVersion: '2025-11-25', server: HTTP, operations: op('    cancellation: { httpSignal: close-stream }') }), findings: [{ path: '/operations/0/cancellation/httpSignal', line: 7, messageId: 'notification' }] },
    { name: 'no signal declared, reported at the cancellation key', manifest: manifest({ server: BOTH, operations: op('    cancellation: { stopsWork: checkpoint }') }), findings: [{ path: '/operations/0/cancellation/httpSignal', line: 7 }] },
    {
      name: 'inherited from defaults, reported where defaults say it',
      manifest: manifest({ server: HTTP, defaults: '  cancellation: { httpSignal: notification }', operations: op('    sideEffect: none') }),
      findings: [{ path: '/operations/0/cancellation/httpSignal', line: 5 }],
    },
  ],
});

ruleTester('cancel-disconnect-semantics', {
  valid: [
    { name: '2026: a disconnect cancels', manifest: manifest({ server: HTTP, operations: op('    cancellation: { disconnectIsCancellation: true }') }) },
    { name: '2025: a disconnect does not cancel', manifest: manifest({ specVersion: '2025-11-25', server: HTTP, operations: op('    cancellation: { disconnectIsCancellation: false }') }) },
  ],
  invalid: [
    { name: '2026: work continues after a disconnect', manifest: manifest({ server: HTTP, operations: op('    cancellation: { disconnectIsCancellation: false }') }), findings: [{ path: '/operations/0/cancellation/disconnectIsCancellation', line: 7, messageId: 'disconnect-cancels', severity: 'error' }] },
    { name: '2025: a disconnect taken as cancellation is a warning', manifest: manifest({ specVersion: '2025-11-25', server: HTTP, operations: op('    cancellation: { disconnectIsCancellation: true }') }), findings: [{ path: '/operations/0/cancellation/disconnectIsCancellation', line: 7, messageId: 'disconnect-continues', severity: 'warn' }] },
  ],
});

ruleTester('cancel-server-sent', {
  valid: [
    { name: '2026: the server ends a stdio listen stream', manifest: manifest({ operations: '  - name: watch\n    method: subscriptions/listen\n    cancellation: { serverSendsCancelled: true }' }) },
    { name: '2025: the server cancels its own sampling request', manifest: manifest({ specVersion: '2025-11-25', operations: '  - name: sample\n    method: sampling/createMessage\n    direction: server-to-client\n    cancellation: { serverSendsCancelled: true }' }) },
    { name: 'no server-sent cancellation', manifest: manifest({ operations: op('    cancellation: { serverSendsCancelled: false }') }) },
  ],
  invalid: [
    { name: '2026: the server cancels a tool call', manifest: manifest({ operations: op('    cancellation: { serverSendsCancelled: true }') }), findings: [{ path: '/operations/0/method', line: 6, messageId: 'listen-only' }] },
    { name: '2026: server-sent cancellation of a listen stream on HTTP only', manifest: manifest({ server: HTTP, operations: '  - name: watch\n    method: subscriptions/listen\n    cancellation: { serverSendsCancelled: true }' }), findings: [{ path: '/server/transports', line: 3, messageId: 'listen-only' }] },
    { name: '2025: the server cancels a client request', manifest: manifest({ specVersion: '2025-11-25', operations: op('    cancellation: { serverSendsCancelled: true }') }), findings: [{ path: '/operations/0/direction', line: 5, messageId: 'own-requests-only' }] },
  ],
});

ruleTester('cancel-initialize', {
  valid: [
    { name: '2025: initialize is not cancellable', manifest: manifest({ specVersion: '2025-11-25', operations: '  - name: init\n    method: initialize\n    cancellation: { clientMayCancel: false }' }) },
    { name: '2026: no initialize operation', manifest: manifest({ operations: op('    sideEffect: none') }) },
  ],
  invalid: [
    { name: '2025: cancellable initialize (the default)', manifest: manifest({ specVersion: '2025-11-25', operations: '  - name: init\n    method: initialize' }), findings: [{ path: '/operations/0/cancellation/clientMayCancel', line: 5, messageId: 'not-cancellable' }] },
    { name: '2026: an initialize handshake', manifest: manifest({ operations: '  - name: init\n    method: initialize\n    cancellation: { clientMayCancel: false }' }), findings: [{ path: '/operations/0/method', line: 6, messageId: 'no-handshake' }] },
  ],
});

ruleTester('cancel-invalid-ignored', {
  valid: [{ name: 'ignored', manifest: manifest({ operations: op('    cancellation: { invalidOrLate: ignore }') }) }],
  invalid: [
    { name: 'answered with an error', manifest: manifest({ operations: op('    cancellation: { invalidOrLate: error-response }') }), findings: [{ path: '/operations/0/cancellation/invalidOrLate', line: 7 }] },
    { name: 'not declared', manifest: manifest({ operations: op('    sideEffect: none') }), findings: [{ path: '/operations/0/cancellation/invalidOrLate', line: 5 }] },
  ],
});
