import { manifest } from '../helpers/lint-text.js';
import { ruleTester } from '../helpers/rule-tester.js';

// Lines: 1 mcprely, 2 specVersion, 3 server, 4 operations:, 5 "- name", 6 method, 7 and on: the fields.
const op = (fields: string, method = 'tools/call') => `  - name: job\n    method: ${method}\n${fields}`;
const streaming = (flowControl: string) => op(`    progress: { emits: true }\n    flowControl: ${flowControl}`);
const HTTP = '{ name: s, transports: [streamable-http] }';

ruleTester('flow-capacity-explicit', {
  valid: [
    { name: 'bounded', manifest: manifest({ operations: streaming('{ progressBuffer: { capacity: 2, overflow: drop-oldest } }') }) },
    { name: 'no progress, not a stream', manifest: manifest({ operations: op('    sideEffect: none') }) },
  ],
  invalid: [
    {
      name: 'a listen stream without a buffer',
      manifest: manifest({ operations: op('    sideEffect: none', 'subscriptions/listen') }),
      findings: [{ path: '/operations/0/flowControl/progressBuffer/capacity', line: 5 }],
    },
    {
      name: 'unbounded, with a capacity that means nothing',
      manifest: manifest({ operations: streaming('{ progressBuffer: { capacity: 64, overflow: unbounded } }') }),
      findings: [{ path: '/operations/0/flowControl/progressBuffer/overflow', line: 8 }],
    },
  ],
});

ruleTester('flow-coalesce-progress', {
  valid: [
    { name: 'coalesces', manifest: manifest({ operations: streaming('{ progressBuffer: { overflow: coalesce-then-drop-oldest } }') }) },
  ],
  invalid: [
    {
      name: 'drops without coalescing',
      manifest: manifest({ operations: streaming('{ progressBuffer: { overflow: drop-oldest } }') }),
      findings: [{ path: '/operations/0/flowControl/progressBuffer/overflow', line: 8, severity: 'warn' }],
    },
  ],
});

ruleTester('flow-drop-oldest', {
  valid: [{ name: 'drops oldest', manifest: manifest({ operations: streaming('{ progressBuffer: { overflow: drop-oldest } }') }) }],
  invalid: [
    {
      name: 'drops the newest',
      manifest: manifest({ operations: streaming('{ progressBuffer: { overflow: drop-newest } }') }),
      findings: [{ path: '/operations/0/flowControl/progressBuffer/overflow', line: 8 }],
    },
    {
      name: 'blocks the producer',
      manifest: manifest({ operations: streaming('{ progressBuffer: { overflow: block } }') }),
      findings: [{ path: '/operations/0/flowControl/progressBuffer/overflow', line: 8 }],
    },
    {
      name: 'says nothing',
      manifest: manifest({ operations: streaming('{ progressBuffer: { capacity: 8 } }') }),
      findings: [{ path: '/operations/0/flowControl/progressBuffer/overflow', line: 8 }],
    },
  ],
});

ruleTester('flow-refetch-on-drop', {
  valid: [{ name: 'marks refetch', manifest: manifest({ operations: streaming('{ refetchOnDrop: true }') }) }],
  invalid: [
    {
      name: 'silent loss',
      manifest: manifest({ operations: streaming('{ refetchOnDrop: false }') }),
      findings: [{ path: '/operations/0/flowControl/refetchOnDrop', line: 8 }],
    },
  ],
});

ruleTester('flow-preserve-final', {
  valid: [{ name: 'keeps finals', manifest: manifest({ operations: streaming('{ preserveFinal: true }') }) }],
  invalid: [
    {
      name: 'may drop the final',
      manifest: manifest({ operations: streaming('{ preserveFinal: false }') }),
      findings: [{ path: '/operations/0/flowControl/preserveFinal', line: 8 }],
    },
  ],
});

ruleTester('flow-sse-headers', {
  valid: [
    {
      name: 'all three, any case',
      manifest: manifest({
        server:
          '{ name: s, transports: [streamable-http], http: { sseHeaders: ' +
          "{ content-type: 'text/event-stream; charset=utf-8', CACHE-CONTROL: 'no-cache, no-transform', x-accel-buffering: 'NO' } } }",
        operations: op('    sideEffect: none'),
      }),
    },
    { name: 'stdio needs none', manifest: manifest({ operations: op('    sideEffect: none') }) },
    {
      name: 'a server answering with single JSON responses sends no SSE response',
      manifest: manifest({
        server: '{ name: s, transports: [streamable-http], http: { responseMode: json } }',
        operations: op('    sideEffect: none'),
      }),
    },
  ],
  invalid: [
    {
      name: 'no headers declared',
      manifest: manifest({ server: HTTP, operations: op('    sideEffect: none') }),
      findings: [{ path: '/server/http/sseHeaders', line: 3 }],
    },
    {
      name: 'SSE responses (the default mode), no headers',
      manifest: manifest({
        server: '{ name: s, transports: [streamable-http], http: { responseMode: sse } }',
        operations: op('    sideEffect: none'),
      }),
      findings: [{ path: '/server/http/sseHeaders', line: 3 }],
    },
    {
      name: 'buffering left on',
      manifest: manifest({
        server:
          '{ name: s, transports: [streamable-http], http: { sseHeaders: ' +
          "{ Content-Type: text/event-stream, Cache-Control: no-cache, X-Accel-Buffering: 'yes' } } }",
        operations: op('    sideEffect: none'),
      }),
      findings: [{ path: '/server/http/sseHeaders/X-Accel-Buffering', line: 3 }],
    },
  ],
});

ruleTester('recovery-new-request-id', {
  valid: [
    {
      name: 'stdio: a broken connection ends the session',
      manifest: manifest({ operations: op('    recovery: { reconnect: { newRequestId: false } }') }),
    },
    { name: '2026: new id', manifest: manifest({ server: HTTP, operations: op('    recovery: { reconnect: { newRequestId: true } }') }) },
    {
      name: '2025: resuming with Last-Event-ID keeps the request',
      manifest: manifest({
        specVersion: '2025-11-25',
        server: HTTP,
        operations: op('    recovery: { reconnect: { sendLastEventId: true } }'),
      }),
    },
  ],
  invalid: [
    {
      name: '2026: old id',
      manifest: manifest({ server: HTTP, operations: op('    recovery: { reconnect: { newRequestId: false } }') }),
      findings: [{ path: '/operations/0/recovery/reconnect/newRequestId', line: 7, messageId: 'new-id' }],
    },
    {
      name: '2025: no resume and no new id',
      manifest: manifest({
        specVersion: '2025-11-25',
        server: HTTP,
        operations: op('    recovery: { reconnect: { sendLastEventId: false } }'),
      }),
      findings: [{ path: '/operations/0/recovery/reconnect/newRequestId', line: 7, messageId: 'new-id-unless-resuming' }],
    },
  ],
});

ruleTester('recovery-no-last-event-id', {
  valid: [
    {
      name: '2026 without Last-Event-ID',
      manifest: manifest({ server: HTTP, operations: op('    recovery: { reconnect: { sendLastEventId: false } }') }),
    },
    {
      name: '2025 may resume',
      manifest: manifest({
        specVersion: '2025-11-25',
        server: HTTP,
        operations: op('    recovery: { reconnect: { sendLastEventId: true } }'),
      }),
    },
    {
      name: 'a stdio-only server has no SSE stream to resume',
      manifest: manifest({ operations: op('    recovery: { reconnect: { sendLastEventId: true } }') }),
    },
    {
      name: 'an operation narrowed to stdio',
      manifest: manifest({
        server: '{ name: s, transports: [stdio, streamable-http] }',
        operations: op('    transports: [stdio]\n    recovery: { reconnect: { sendLastEventId: true } }'),
      }),
    },
  ],
  invalid: [
    {
      name: '2026 resumes',
      manifest: manifest({ server: HTTP, operations: op('    recovery: { reconnect: { sendLastEventId: true } }') }),
      findings: [{ path: '/operations/0/recovery/reconnect/sendLastEventId', line: 7 }],
    },
  ],
});

ruleTester('recovery-refetch-list', {
  valid: [
    {
      name: 'a stream that refetches',
      manifest: manifest({ operations: op('    recovery: { refetch: ["resources/list"] }', 'subscriptions/listen') }),
    },
    { name: 'a read needs no list', manifest: manifest({ operations: op('    sideEffect: none') }) },
    { name: 'an idempotent tool needs no list', manifest: manifest({ server: HTTP, operations: op('    sideEffect: idempotent') }) },
  ],
  invalid: [
    {
      name: 'a mutation with an empty list',
      manifest: manifest({ operations: op('    sideEffect: mutation\n    recovery: { refetch: [] }') }),
      findings: [{ path: '/operations/0/recovery/refetch', line: 8, severity: 'warn' }],
    },
    {
      name: 'a task without one',
      manifest: manifest({ operations: op('    task: { used: true }') }),
      findings: [{ path: '/operations/0/recovery/refetch', line: 5 }],
    },
  ],
});

ruleTester('recovery-no-unsafe-replay', {
  valid: [
    {
      name: 'no replay',
      manifest: manifest({ operations: op('    sideEffect: mutation\n    recovery: { replayUnsafeMutations: false }') }),
    },
    {
      name: 'a read: nothing unsafe to replay',
      manifest: manifest({ operations: op('    sideEffect: none\n    recovery: { replayUnsafeMutations: true }', 'resources/read') }),
    },
    {
      name: 'an idempotent operation',
      manifest: manifest({ operations: op('    sideEffect: idempotent\n    recovery: { replayUnsafeMutations: true }') }),
    },
    {
      name: 'a keyed mutation is replayed with its key (CONDITIONAL, not unsafe)',
      manifest: manifest({
        operations: op('    sideEffect: mutation\n    idempotency: { keyArgument: key }\n    recovery: { replayUnsafeMutations: true }'),
      }),
    },
    {
      name: 'replay switched on in defaults, for reads only',
      manifest: manifest({ defaults: '  recovery: { replayUnsafeMutations: true }', operations: op('    sideEffect: none') }),
    },
  ],
  invalid: [
    {
      name: 'an unkeyed mutation replayed',
      manifest: manifest({ operations: op('    sideEffect: mutation\n    recovery: { replayUnsafeMutations: true }') }),
      findings: [{ path: '/operations/0/recovery/replayUnsafeMutations', line: 8 }],
    },
    {
      name: 'an undeclared side effect is reviewed as a mutation',
      manifest: manifest({ operations: op('    recovery: { replayUnsafeMutations: true }') }),
      findings: [{ path: '/operations/0/recovery/replayUnsafeMutations', line: 7 }],
    },
    {
      name: 'switched on in defaults: reported at the defaults line, for the mutation only',
      manifest: manifest({
        defaults: '  recovery: { replayUnsafeMutations: true }',
        operations: `${op('    sideEffect: mutation')}\n  - name: read\n    method: resources/read\n    sideEffect: none`,
      }),
      findings: [{ path: '/operations/0/recovery/replayUnsafeMutations', line: 5 }],
    },
  ],
});

const reconnectBackoff = (backoff: string) => op(`    recovery: { reconnect: { backoff: ${backoff} } }`);

ruleTester('recovery-backoff', {
  valid: [
    {
      name: 'capped with jitter',
      manifest: manifest({ server: HTTP, operations: reconnectBackoff('{ capMs: 8000, jitter: full }') }),
    },
    {
      name: 'a cap at the 100 ms bound itself, equal jitter',
      manifest: manifest({ server: HTTP, operations: reconnectBackoff('{ baseMs: 10, capMs: 100, jitter: equal }') }),
    },
    { name: 'a stdio tool call does not reconnect', manifest: manifest({ operations: op('    sideEffect: none') }) },
    {
      name: 'a stdio tool call does not reconnect, whatever its backoff says',
      manifest: manifest({ operations: reconnectBackoff('{ baseMs: 0, capMs: 0, jitter: none }') }),
    },
  ],
  invalid: [
    {
      name: 'a listen stream with no backoff: an error',
      manifest: manifest({ operations: op('    recovery: { refetch: [x] }', 'subscriptions/listen') }),
      findings: [
        { path: '/operations/0/recovery/reconnect/backoff/capMs', line: 7, messageId: 'default', severity: 'error' },
        { path: '/operations/0/recovery/reconnect/backoff/jitter', line: 7, messageId: 'default', severity: 'error' },
      ],
    },
    {
      name: 'HTTP, capped but jitter none: every client returns at once',
      manifest: manifest({ server: HTTP, operations: reconnectBackoff('{ baseMs: 250, capMs: 8000, jitter: none }') }),
      findings: [{ path: '/operations/0/recovery/reconnect/backoff/jitter', line: 7, messageId: 'default', severity: 'error' }],
    },
    {
      name: 'a base of 0 ms',
      manifest: manifest({ server: HTTP, operations: reconnectBackoff('{ baseMs: 0, capMs: 8000, jitter: full }') }),
      findings: [{ path: '/operations/0/recovery/reconnect/backoff/baseMs', line: 7, messageId: 'zero-base', severity: 'error' }],
    },
    {
      name: 'a base of 5 ms: the first reconnects of the herd come back within 5 ms',
      manifest: manifest({ server: HTTP, operations: reconnectBackoff('{ baseMs: 5, capMs: 8000, jitter: full }') }),
      findings: [{ path: '/operations/0/recovery/reconnect/backoff/baseMs', line: 7, messageId: 'small-base', severity: 'error' }],
    },
    {
      name: 'a base of 9 ms from the defaults, on a listen stream',
      manifest: manifest({
        defaults: '  recovery: { reconnect: { backoff: { baseMs: 9, capMs: 8000, jitter: full } } }',
        operations: op('    sideEffect: none', 'subscriptions/listen'),
      }),
      findings: [{ path: '/operations/0/recovery/reconnect/backoff/baseMs', line: 5, messageId: 'small-base' }],
    },
    {
      name: 'a cap of 0 ms',
      manifest: manifest({ server: HTTP, operations: reconnectBackoff('{ baseMs: 250, capMs: 0, jitter: full }') }),
      findings: [{ path: '/operations/0/recovery/reconnect/backoff/capMs', line: 7, messageId: 'small-cap', severity: 'error' }],
    },
    {
      name: 'a cap of 1 ms',
      manifest: manifest({ server: HTTP, operations: reconnectBackoff('{ baseMs: 250, capMs: 1, jitter: full }') }),
      findings: [{ path: '/operations/0/recovery/reconnect/backoff/capMs', line: 7, messageId: 'small-cap', severity: 'error' }],
    },
    {
      name: 'a cap of 99 ms from the defaults, on a listen stream',
      manifest: manifest({
        defaults: '  recovery: { reconnect: { backoff: { baseMs: 10, capMs: 99, jitter: equal } } }',
        operations: op('    sideEffect: none', 'subscriptions/listen'),
      }),
      findings: [{ path: '/operations/0/recovery/reconnect/backoff/capMs', line: 5, messageId: 'small-cap' }],
    },
  ],
});

const task = (fields: string) => op(`    task: { used: true, ${fields} }`);

ruleTester('task-cancel-semantics', {
  valid: [
    {
      name: '2026: acknowledgement then checkpoint',
      manifest: manifest({ operations: task('cancel: acknowledge-then-checkpoint, ackIsTerminal: false') }),
    },
    {
      name: '2025: terminal before the answer',
      manifest: manifest({ specVersion: '2025-11-25', operations: task('cancel: immediate-terminal, ackIsTerminal: true') }),
    },
    { name: 'no task', manifest: manifest({ operations: op('    task: { used: false, cancel: immediate-terminal }') }) },
    {
      name: 'a read declared as a task',
      manifest: manifest({ operations: op('    task: { used: true, cancel: immediate-terminal, ackIsTerminal: true }', 'resources/read') }),
    },
  ],
  invalid: [
    {
      name: '2026: acknowledgement taken as final, cancel immediate',
      manifest: manifest({ operations: task('cancel: immediate-terminal, ackIsTerminal: true') }),
      findings: [
        { path: '/operations/0/task/cancel', line: 7, messageId: 'ack-not-terminal' },
        { path: '/operations/0/task/ackIsTerminal', line: 7, messageId: 'ack-not-terminal' },
      ],
    },
    {
      name: '2025: acknowledge then checkpoint',
      manifest: manifest({ specVersion: '2025-11-25', operations: task('cancel: acknowledge-then-checkpoint') }),
      findings: [{ path: '/operations/0/task/cancel', line: 7, messageId: 'terminal-before-answer' }],
    },
  ],
});

ruleTester('task-no-cancelled-notification', {
  valid: [
    { name: 'tasks/cancel', manifest: manifest({ operations: task('cancelVia: tasks/cancel') }) },
    {
      name: 'a listen stream declared as a task',
      manifest: manifest({ operations: op('    task: { used: true }', 'subscriptions/listen') }),
    },
  ],
  invalid: [
    {
      name: 'notification',
      manifest: manifest({ operations: task('cancelVia: notifications/cancelled') }),
      findings: [{ path: '/operations/0/task/cancelVia', line: 7 }],
    },
  ],
});

ruleTester('task-durable-state', {
  valid: [
    { name: 'durable', manifest: manifest({ operations: task('store: durable, survivesDisconnect: true') }) },
    { name: 'a prompt declared as a task', manifest: manifest({ operations: op('    task: { used: true }', 'prompts/get') }) },
  ],
  invalid: [
    {
      name: 'in memory, tied to the connection',
      manifest: manifest({ operations: task('store: in-memory, survivesDisconnect: false') }),
      findings: [
        { path: '/operations/0/task/store', line: 7 },
        { path: '/operations/0/task/survivesDisconnect', line: 7 },
      ],
    },
  ],
});

ruleTester('task-wait-until-terminal', {
  valid: [
    { name: 'polls', manifest: manifest({ operations: task('clientWaits: poll') }) },
    // A read cannot be a task (task-augmentable-method says so); the rules about a task's life do not pile on.
    {
      name: 'a read declared as a task',
      manifest: manifest({ operations: op('    task: { used: true, clientWaits: none }', 'resources/read') }),
    },
  ],
  invalid: [
    {
      name: 'stops waiting',
      manifest: manifest({ operations: task('clientWaits: none') }),
      findings: [{ path: '/operations/0/task/clientWaits', line: 7 }],
    },
  ],
});

ruleTester('operation-names-unique', {
  valid: [
    { name: 'distinct', manifest: manifest({ operations: '  - { name: a, method: tools/call }\n  - { name: b, method: tools/call }' }) },
  ],
  invalid: [
    {
      name: 'a name used three times',
      manifest: manifest({
        operations: '  - { name: a, method: tools/call }\n  - { name: a, method: tools/call }\n  - { name: a, method: tools/call }',
      }),
      findings: [
        { path: '/operations/1/name', line: 6 },
        { path: '/operations/2/name', line: 7 },
      ],
    },
  ],
});

ruleTester('manifest-placeholders', {
  valid: [
    {
      name: 'real names and description',
      manifest: manifest({ operations: '  - { name: search, method: tools/call, description: Searches the catalog., sideEffect: none }' }),
    },
    {
      name: 'a placeholder name elsewhere than where the template writes it, and DECIDE inside a sentence',
      manifest: manifest({
        operations: '  - { name: search, method: tools/call, description: "my_tool is how we DECIDE", sideEffect: none }',
      }),
    },
  ],
  invalid: [
    {
      name: 'each placeholder at its value',
      manifest: manifest({
        server: '{ name: my-server, transports: [stdio] }',
        operations:
          '  - name: my_tool\n    method: tools/call\n    description: What the tool does, in one sentence.\n    sideEffect: none',
      }),
      findings: [
        { path: '/server/name', line: 3 },
        { path: '/operations/0/name', line: 5 },
        { path: '/operations/0/description', line: 7 },
      ],
    },
    {
      name: 'a DECIDE value anywhere a string may be',
      manifest: manifest({
        server: '{ name: DECIDE, transports: [stdio] }',
        operations:
          '  - name: search\n    method: tools/call\n    description: "DECIDE: say what it does"\n    sideEffect: none\n    x-owner: DECIDE',
      }),
      findings: [
        { path: '/server/name', line: 3 },
        { path: '/operations/0/description', line: 7 },
        { path: '/operations/0/x-owner', line: 9 },
      ],
    },
  ],
});

ruleTester('task-augmentable-method', {
  valid: [
    { name: 'a tool call', manifest: manifest({ operations: task('clientWaits: poll') }) },
    { name: 'a read, not a task', manifest: manifest({ operations: op('    task: { used: false }', 'resources/read') }) },
    {
      name: '2025: the server asks for a sampling as a task',
      manifest: manifest({ specVersion: '2025-11-25', operations: op('    task: { used: true }', 'sampling/createMessage') }),
    },
  ],
  invalid: [
    {
      name: 'a read',
      manifest: manifest({ operations: op('    task: { used: true }', 'resources/read') }),
      findings: [{ path: '/operations/0/task/used', line: 7, messageId: 'not-a-task-method' }],
    },
    {
      name: 'a listen stream, from the defaults',
      manifest: manifest({ defaults: '  task: { used: true }', operations: op('    sideEffect: none', 'subscriptions/listen') }),
      findings: [{ path: '/operations/0/task/used', line: 5, messageId: 'not-a-task-method' }],
    },
    {
      name: 'a prompt on 2025-11-25',
      manifest: manifest({ specVersion: '2025-11-25', operations: op('    task: { used: true }', 'prompts/get') }),
      findings: [{ path: '/operations/0/task/used', line: 7, messageId: 'not-a-task-method' }],
    },
    {
      name: '2026: a sampling request (only tools/call)',
      manifest: manifest({ operations: op('    task: { used: true }', 'sampling/createMessage') }),
      findings: [{ path: '/operations/0/task/used', line: 7, messageId: 'not-a-task-method' }],
    },
  ],
});

const timedTask = (maxMs: number, fields: string) =>
  op(`    timeouts: { idleMs: 1000, maxMs: ${maxMs} }\n    task: { used: true, ${fields} }`);

ruleTester('task-ttl-outlives-result', {
  valid: [
    {
      name: 'a day, polled every 5 s, work up to a minute',
      manifest: manifest({ operations: timedTask(60000, 'pollIntervalMs: 5000, ttlMs: 86400000') }),
    },
    {
      name: 'just past the read after the maximum',
      manifest: manifest({ operations: timedTask(60000, 'pollIntervalMs: 5000, ttlMs: 65001') }),
    },
    { name: 'no TTL: kept until read', manifest: manifest({ operations: timedTask(60000, 'pollIntervalMs: 5000') }) },
    {
      name: 'a read is no task',
      manifest: manifest({ operations: op('    task: { used: true, pollIntervalMs: 5000, ttlMs: 1 }', 'resources/read') }),
    },
  ],
  invalid: [
    {
      name: 'a TTL of 1 ms',
      manifest: manifest({ operations: timedTask(60000, 'pollIntervalMs: 5000, ttlMs: 1') }),
      findings: [
        { path: '/operations/0/task/ttlMs', line: 8, messageId: 'before-first-poll' },
        { path: '/operations/0/task/ttlMs', line: 8, messageId: 'before-late-result' },
      ],
    },
    {
      name: 'a poll interval above the TTL, without a maximum timeout',
      manifest: manifest({ operations: task('pollIntervalMs: 600000, ttlMs: 60000') }),
      findings: [{ path: '/operations/0/task/ttlMs', line: 7, messageId: 'before-first-poll' }],
    },
    {
      name: 'a TTL that ends with the maximum timeout, before the next poll',
      manifest: manifest({ operations: timedTask(3600000, 'pollIntervalMs: 5000, ttlMs: 3600000') }),
      findings: [{ path: '/operations/0/task/ttlMs', line: 8, messageId: 'before-late-result' }],
    },
    {
      name: 'no poll interval: read when the work ends, after the TTL',
      manifest: manifest({ operations: timedTask(60000, 'ttlMs: 30000') }),
      findings: [{ path: '/operations/0/task/ttlMs', line: 8, messageId: 'before-late-result' }],
    },
  ],
});

ruleTester('task-poll-interval-floor', {
  valid: [
    { name: 'every 5 s', manifest: manifest({ operations: task('pollIntervalMs: 5000') }) },
    { name: 'every second, the floor', manifest: manifest({ operations: task('pollIntervalMs: 1000') }) },
    { name: 'no interval', manifest: manifest({ operations: task('clientWaits: listen') }) },
  ],
  invalid: [
    {
      name: 'every millisecond: a new poll before the last is answered',
      manifest: manifest({ operations: task('pollIntervalMs: 1') }),
      findings: [
        { path: '/operations/0/task/pollIntervalMs', line: 7, messageId: 'below-round-trip', severity: 'error' },
        { path: '/operations/0/task/pollIntervalMs', line: 7, messageId: 'faster-than-sdk', severity: 'warn' },
      ],
    },
    {
      name: 'every 0 ms',
      manifest: manifest({ operations: task('pollIntervalMs: 0') }),
      findings: [
        { path: '/operations/0/task/pollIntervalMs', line: 7, messageId: 'below-round-trip', severity: 'error' },
        { path: '/operations/0/task/pollIntervalMs', line: 7, messageId: 'faster-than-sdk', severity: 'warn' },
      ],
    },
    {
      name: 'every 500 ms: faster than the SDK polls on its own, a warning',
      manifest: manifest({ operations: task('pollIntervalMs: 500') }),
      findings: [{ path: '/operations/0/task/pollIntervalMs', line: 7, messageId: 'faster-than-sdk', severity: 'warn' }],
    },
    {
      name: 'every 999 ms, from the defaults',
      manifest: manifest({ defaults: '  task: { pollIntervalMs: 999 }', operations: task('clientWaits: poll') }),
      findings: [{ path: '/operations/0/task/pollIntervalMs', line: 5, messageId: 'faster-than-sdk', severity: 'warn' }],
    },
  ],
});
