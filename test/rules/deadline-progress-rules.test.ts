import { describe, expect, it } from 'vitest';
import { lintText, manifest } from '../helpers/lint-text.js';
import { ruleTester } from '../helpers/rule-tester.js';

// Lines: 1 mcprely, 2 specVersion, 3 server, 4 operations:, 5 "- name", 6 method, 7 the field line.
const op = (fields: string, method = 'tools/call') => `  - name: job\n    method: ${method}\n${fields}`;
const HTTP = '{ name: s, transports: [streamable-http] }';

ruleTester('deadline-max-required', {
  valid: [{ name: 'a maximum', manifest: manifest({ operations: op('    timeouts: { idleMs: 1000, maxMs: 5000 }') }) }],
  invalid: [
    {
      name: 'idle only',
      manifest: manifest({ operations: op('    timeouts: { idleMs: 1000 }') }),
      findings: [{ path: '/operations/0/timeouts/maxMs', line: 7 }],
    },
    {
      name: 'no timeouts at all: the operation is the place',
      manifest: manifest({ operations: op('    sideEffect: none') }),
      findings: [{ path: '/operations/0/timeouts/maxMs', line: 5, messageId: 'unbounded', severity: 'error' }],
    },
    {
      name: 'idle only, and nothing resets the idle clock: the idle timeout bounds it (a warning)',
      manifest: manifest({ operations: op('    timeouts: { idleMs: 1000 }\n    progress: { emits: false }') }),
      findings: [{ path: '/operations/0/timeouts/maxMs', line: 7, messageId: 'idle-bounds', severity: 'warn' }],
    },
    {
      name: 'idle only, and progress resets the idle clock: nothing bounds it',
      manifest: manifest({
        operations: op('    timeouts: { idleMs: 1000, resetIdleOnProgress: true }\n    progress: { emits: true, minIntervalMs: 250 }'),
      }),
      findings: [{ path: '/operations/0/timeouts/maxMs', line: 7, messageId: 'unbounded', severity: 'error' }],
    },
    {
      name: 'idle only, and keep-alives inside the idle window count as activity',
      manifest: manifest({
        server: '{ name: s, transports: [streamable-http], http: { keepaliveMs: 500 } }',
        operations: op('    timeouts: { idleMs: 1000, keepaliveCountsAsActivity: true }'),
      }),
      findings: [{ path: '/operations/0/timeouts/maxMs', line: 7, messageId: 'unbounded', severity: 'error' }],
    },
    {
      name: 'a Task: its polls carry no progress, so its idle timeout bounds each (a warning)',
      manifest: manifest({
        operations: op(
          '    timeouts: { idleMs: 1000, resetIdleOnProgress: true }\n    progress: { emits: true, minIntervalMs: 250 }\n    task: { used: true }',
        ),
      }),
      findings: [{ path: '/operations/0/timeouts/maxMs', line: 7, messageId: 'idle-bounds', severity: 'warn' }],
    },
    {
      name: 'a maximum below one round trip',
      manifest: manifest({ operations: op('    timeouts: { idleMs: 1, maxMs: 5 }') }),
      findings: [{ path: '/operations/0/timeouts/maxMs', line: 7, messageId: 'below-round-trip' }],
    },
  ],
});

ruleTester('deadline-idle-required', {
  valid: [
    { name: 'positive idle', manifest: manifest({ operations: op('    timeouts: { idleMs: 1000, maxMs: 5000 }') }) },
    { name: 'exactly one round trip', manifest: manifest({ operations: op('    timeouts: { idleMs: 100, maxMs: 5000 }') }) },
  ],
  invalid: [
    {
      name: 'missing',
      manifest: manifest({ operations: op('    timeouts: { maxMs: 5000 }') }),
      findings: [{ path: '/operations/0/timeouts/idleMs', line: 7, messageId: 'missing' }],
    },
    {
      name: 'zero',
      manifest: manifest({ operations: op('    timeouts: { idleMs: 0, maxMs: 5000 }') }),
      findings: [{ path: '/operations/0/timeouts/idleMs', line: 7, messageId: 'zero' }],
    },
    {
      name: '1 ms: every request is cancelled before a round trip',
      manifest: manifest({ operations: op('    timeouts: { idleMs: 1, maxMs: 5000 }') }),
      findings: [{ path: '/operations/0/timeouts/idleMs', line: 7, messageId: 'below-round-trip' }],
    },
    {
      name: 'just below one round trip, from the defaults',
      manifest: manifest({ defaults: '  timeouts: { idleMs: 99 }', operations: op('    timeouts: { maxMs: 5000 }') }),
      findings: [{ path: '/operations/0/timeouts/idleMs', line: 5, messageId: 'below-round-trip' }],
    },
  ],
});

ruleTester('deadline-max-at-least-idle', {
  valid: [
    { name: 'max above idle', manifest: manifest({ operations: op('    timeouts: { idleMs: 1000, maxMs: 5000 }') }) },
    { name: 'one side missing is for other rules', manifest: manifest({ operations: op('    timeouts: { idleMs: 5000 }') }) },
  ],
  invalid: [
    {
      name: 'swapped',
      manifest: manifest({ operations: op('    timeouts: { idleMs: 5000, maxMs: 1000 }') }),
      findings: [{ path: '/operations/0/timeouts/maxMs', line: 7 }],
    },
    {
      name: 'idle from defaults, max from the operation',
      manifest: manifest({ defaults: '  timeouts: { idleMs: 60000 }', operations: op('    timeouts: { maxMs: 1000 }') }),
      findings: [{ path: '/operations/0/timeouts/maxMs', line: 9 }],
    },
    {
      name: 'equal: the idle clock can never fire first',
      manifest: manifest({ operations: op('    timeouts: { idleMs: 5000, maxMs: 5000 }') }),
      findings: [{ path: '/operations/0/timeouts/maxMs', line: 7 }],
    },
    {
      name: 'equal, the idle timeout inherited from the defaults',
      manifest: manifest({ defaults: '  timeouts: { idleMs: 30000 }', operations: op('    timeouts: { maxMs: 30000 }') }),
      findings: [{ path: '/operations/0/timeouts/maxMs', line: 9 }],
    },
  ],
});

ruleTester('deadline-progress-resets-idle-only', {
  valid: [
    { name: 'idle only', manifest: manifest({ operations: op('    timeouts: { resetIdleOnProgress: true, resetMaxOnProgress: false }') }) },
    { name: 'not said: the default is false', manifest: manifest({ operations: op('    timeouts: { idleMs: 10 }') }) },
    {
      name: 'no progress is sent: nothing ever resets the maximum',
      manifest: manifest({ operations: op('    timeouts: { resetMaxOnProgress: true }\n    progress: { emits: false }') }),
    },
    {
      name: 'a listen stream carries no progress',
      manifest: manifest({ operations: op('    timeouts: { resetMaxOnProgress: true }', 'subscriptions/listen') }),
    },
    {
      name: 'a Task: its request timeouts apply to each tasks/get poll, which carries no progress',
      manifest: manifest({
        operations: op(
          '    timeouts: { resetMaxOnProgress: true }\n    progress: { emits: true, minIntervalMs: 250 }\n    task: { used: true }',
        ),
      }),
    },
  ],
  invalid: [
    {
      name: 'progress resets the maximum',
      manifest: manifest({
        operations: op('    timeouts: { resetMaxOnProgress: true }\n    progress: { emits: true, minIntervalMs: 250 }'),
      }),
      findings: [{ path: '/operations/0/timeouts/resetMaxOnProgress', line: 7 }],
    },
    {
      name: 'from the defaults, on the operation that sends progress',
      manifest: manifest({
        defaults: '  timeouts: { resetMaxOnProgress: true }',
        operations: [op('    progress: { emits: true, minIntervalMs: 250 }'), op('    sideEffect: none').replace('job', 'read')].join('\n'),
      }),
      findings: [{ path: '/operations/0/timeouts/resetMaxOnProgress', line: 5 }],
    },
  ],
});

ruleTester('deadline-keepalive-not-activity', {
  valid: [
    {
      name: 'keep-alive is not activity',
      manifest: manifest({ server: HTTP, operations: op('    timeouts: { keepaliveCountsAsActivity: false }') }),
    },
    {
      name: 'stdio has no SSE keep-alive comments',
      manifest: manifest({ operations: op('    timeouts: { keepaliveCountsAsActivity: true }') }),
    },
  ],
  invalid: [
    {
      name: 'keep-alive resets idle, but the server declares no keep-alive: latent (a warning)',
      manifest: manifest({ server: HTTP, operations: op('    timeouts: { keepaliveCountsAsActivity: true }') }),
      findings: [{ path: '/operations/0/timeouts/keepaliveCountsAsActivity', line: 7, messageId: 'latent', severity: 'warn' }],
    },
    {
      name: 'an operation narrowed to HTTP',
      manifest: manifest({ operations: op('    transports: [streamable-http]\n    timeouts: { keepaliveCountsAsActivity: true }') }),
      findings: [{ path: '/operations/0/timeouts/keepaliveCountsAsActivity', line: 8, messageId: 'latent', severity: 'warn' }],
    },
    {
      name: 'keep-alives come inside the idle window: they hide a stuck worker',
      manifest: manifest({
        server: '{ name: s, transports: [streamable-http], http: { keepaliveMs: 15000 } }',
        operations: op('    timeouts: { idleMs: 30000, keepaliveCountsAsActivity: true }'),
      }),
      findings: [{ path: '/operations/0/timeouts/keepaliveCountsAsActivity', line: 7, messageId: 'within-idle', severity: 'error' }],
    },
    {
      name: 'keep-alives slower than the idle timeout: none arrives before it fires (a warning)',
      manifest: manifest({
        server: '{ name: s, transports: [streamable-http], http: { keepaliveMs: 15000 } }',
        operations: op('    timeouts: { idleMs: 5000, keepaliveCountsAsActivity: true }'),
      }),
      findings: [{ path: '/operations/0/timeouts/keepaliveCountsAsActivity', line: 7, messageId: 'latent', severity: 'warn' }],
    },
  ],
});

const proxied = (http: string, transports = 'streamable-http') => `{ name: s, transports: [${transports}], http: ${http} }`;

// A rule function: the table compares places (the messageIds `missing` and `too-slow` are checked below it).
const KEEPALIVE_CASES = {
  valid: [
    {
      name: 'keep-alive well below the proxy',
      manifest: manifest({ server: proxied('{ keepaliveMs: 15000, proxyIdleTimeoutMs: 60000 }'), operations: op('    sideEffect: none') }),
    },
    {
      name: 'no proxy declared',
      manifest: manifest({ server: '{ name: s, transports: [streamable-http] }', operations: op('    sideEffect: none') }),
    },
    {
      name: 'stdio only',
      manifest: manifest({ server: proxied('{ proxyIdleTimeoutMs: 60000 }', 'stdio'), operations: op('    sideEffect: none') }),
    },
    {
      name: 'a proxy idle timeout of 0 is none: no keep-alive needed',
      manifest: manifest({ server: proxied('{ keepaliveMs: 15000, proxyIdleTimeoutMs: 0 }'), operations: op('    sideEffect: none') }),
    },
    {
      name: 'a proxy idle timeout of 0 and no keep-alive',
      manifest: manifest({ server: proxied('{ proxyIdleTimeoutMs: 0 }'), operations: op('    sideEffect: none') }),
    },
    {
      name: 'keep-alive slower than the proxy, but every HTTP operation goes idle first (at or below the proxy)',
      manifest: manifest({
        server: proxied('{ keepaliveMs: 1500000, proxyIdleTimeoutMs: 60000 }', 'stdio, streamable-http'),
        defaults: '  timeouts: { idleMs: 30000, maxMs: 120000 }',
        operations: [op('    timeouts: { idleMs: 60000 }'), op('    sideEffect: none', 'subscriptions/listen')].join('\n'),
      }),
    },
    {
      name: 'no keep-alive, but every HTTP operation goes idle before the proxy closes',
      manifest: manifest({ server: proxied('{ proxyIdleTimeoutMs: 60000 }'), operations: op('    timeouts: { idleMs: 5000 }') }),
    },
    {
      name: 'the operation that may stay silent is served on stdio only',
      manifest: manifest({
        server: proxied('{ keepaliveMs: 90000, proxyIdleTimeoutMs: 60000 }', 'stdio, streamable-http'),
        operations: [op('    timeouts: { idleMs: 5000 }'), op('    transports: [stdio]\n    timeouts: { idleMs: 600000 }')].join('\n'),
      }),
    },
  ],
  invalid: [
    {
      name: 'keep-alive slower than the proxy, the operation sets no idle timeout',
      manifest: manifest({ server: proxied('{ keepaliveMs: 60000, proxyIdleTimeoutMs: 60000 }'), operations: op('    sideEffect: none') }),
      findings: [{ path: '/server/http/keepaliveMs', line: 3 }],
    },
    {
      name: 'no keep-alive behind a proxy, the operation sets no idle timeout',
      manifest: manifest({ server: proxied('{ proxyIdleTimeoutMs: 60000 }'), operations: op('    sideEffect: none') }),
      findings: [{ path: '/server/http/keepaliveMs', line: 3 }],
    },
    {
      name: 'keep-alive slower than the proxy, an idle timeout above the proxy (from the defaults)',
      manifest: manifest({
        server: proxied('{ keepaliveMs: 1500000, proxyIdleTimeoutMs: 60000 }'),
        defaults: '  timeouts: { idleMs: 120000 }',
        operations: op('    sideEffect: none'),
      }),
      findings: [{ path: '/server/http/keepaliveMs', line: 3 }],
    },
    {
      name: 'an idle timeout of 0 does not end a silent stream',
      manifest: manifest({
        server: proxied('{ keepaliveMs: 90000, proxyIdleTimeoutMs: 60000 }'),
        operations: op('    timeouts: { idleMs: 0 }'),
      }),
      findings: [{ path: '/server/http/keepaliveMs', line: 3 }],
    },
    {
      name: 'one quiet operation among quick ones is enough, reported once at the keep-alive',
      manifest: manifest({
        server: proxied('{ keepaliveMs: 90000, proxyIdleTimeoutMs: 60000 }'),
        operations: [op('    timeouts: { idleMs: 5000 }'), op('    timeouts: { idleMs: 300000 }'), op('    sideEffect: none')].join('\n'),
      }),
      findings: [{ path: '/server/http/keepaliveMs', line: 3 }],
    },
    {
      name: 'an operation offered on HTTP by its own transports, the server on stdio',
      manifest: manifest({
        server: proxied('{ keepaliveMs: 90000, proxyIdleTimeoutMs: 60000 }', 'stdio'),
        operations: op('    transports: [streamable-http]\n    timeouts: { idleMs: 600000 }'),
      }),
      findings: [{ path: '/server/http/keepaliveMs', line: 3 }],
    },
    {
      name: 'a keep-alive interval of 0 sends none',
      manifest: manifest({
        server: proxied('{ keepaliveMs: 0, proxyIdleTimeoutMs: 60000 }'),
        operations: op('    timeouts: { idleMs: 600000 }'),
      }),
      findings: [{ path: '/server/http/keepaliveMs', line: 3 }],
    },
  ],
};

ruleTester('deadline-keepalive-below-proxy-idle', KEEPALIVE_CASES);

describe('deadline-keepalive-below-proxy-idle: what its findings say', () => {
  const only = (text: string) => lintText(text, ['deadline-keepalive-below-proxy-idle']);
  const PROXY = 'The proxy closes connections idle for 60000 ms but ';
  const NONE = 'the server sends no SSE keep-alive (server.http.keepaliveMs';
  it.each([
    [
      'keep-alive slower than the proxy, the operation sets no idle timeout',
      'too-slow',
      `${PROXY}keep-alives come only every 60000 ms, and job may stay silent longer than that: it sets no timeouts.idleMs`,
    ],
    [
      'no keep-alive behind a proxy, the operation sets no idle timeout',
      'missing',
      `${PROXY}${NONE}), and job may stay silent longer than that: it sets no timeouts.idleMs`,
    ],
    [
      'one quiet operation among quick ones is enough, reported once at the keep-alive',
      'too-slow',
      `${PROXY}keep-alives come only every 90000 ms, and job (and 1 other operation) may stay silent longer than that: ` +
        'its timeouts.idleMs is 300000',
    ],
    [
      'a keep-alive interval of 0 sends none',
      'missing',
      `${PROXY}${NONE} is 0), and job may stay silent longer than that: its timeouts.idleMs is 600000`,
    ],
  ])('%s: %s', (name, messageId, message) => {
    const found = only(KEEPALIVE_CASES.invalid.find((testCase) => testCase.name === name)!.manifest);
    expect(found.map((finding) => [finding.messageId, finding.severity, finding.message])).toEqual([[messageId, 'error', message]]);
  });
});

ruleTester('deadline-long-suggests-task', {
  valid: [
    { name: 'two minutes, silent at most one', manifest: manifest({ operations: op('    timeouts: { idleMs: 60000, maxMs: 120000 }') }) },
    {
      name: 'stdio: silent up to 20 minutes is within the 30-minute idle limit',
      manifest: manifest({ operations: op('    timeouts: { idleMs: 1200000, maxMs: 1200000 }\n    task: { used: true }') }),
    },
    {
      name: 'a long task',
      manifest: manifest({ operations: op('    timeouts: { idleMs: 3600000, maxMs: 3600000 }\n    task: { used: true }') }),
    },
    {
      name: 'a long listen stream',
      manifest: manifest({ server: HTTP, operations: op('    timeouts: { idleMs: 600000, maxMs: 3600000 }', 'subscriptions/listen') }),
    },
  ],
  invalid: [
    {
      name: 'an hour-long tool call',
      manifest: manifest({ operations: op('    timeouts: { maxMs: 3600000 }') }),
      findings: [{ path: '/operations/0/timeouts/maxMs', line: 7, severity: 'info', messageId: 'runs-past-background' }],
    },
    {
      name: 'three minutes: past the two after which hosts move calls to the background',
      manifest: manifest({ operations: op('    timeouts: { idleMs: 30000, maxMs: 180000 }') }),
      findings: [{ path: '/operations/0/timeouts/maxMs', line: 7, severity: 'info', messageId: 'runs-past-background' }],
    },
    {
      name: 'HTTP: silent for ten minutes, past the 5-minute idle limit (stdio would allow it)',
      manifest: manifest({ server: HTTP, operations: op('    timeouts: { idleMs: 600000, maxMs: 600000 }\n    task: { used: false }') }),
      findings: [
        { path: '/operations/0/timeouts/idleMs', line: 7, severity: 'info', messageId: 'silent-past-host-idle' },
        { path: '/operations/0/timeouts/maxMs', line: 7, severity: 'info', messageId: 'runs-past-background' },
      ],
    },
    {
      name: 'stdio: silent for 40 minutes',
      manifest: manifest({ operations: op('    timeouts: { idleMs: 2400000 }') }),
      findings: [{ path: '/operations/0/timeouts/idleMs', line: 7, severity: 'info', messageId: 'silent-past-host-idle' }],
    },
  ],
});

ruleTester('deadline-cancel-on-timeout', {
  valid: [{ name: 'default', manifest: manifest({ operations: op('    timeouts: { idleMs: 5 }') }) }],
  invalid: [
    {
      name: 'abandons without cancelling: an error (the server keeps working on the abandoned request)',
      manifest: manifest({ operations: op('    timeouts: { cancelOnTimeout: false }') }),
      findings: [{ path: '/operations/0/timeouts/cancelOnTimeout', line: 7, severity: 'error' }],
    },
    {
      name: 'abandons without cancelling, from the defaults, on HTTP',
      manifest: manifest({ server: HTTP, defaults: '  timeouts: { cancelOnTimeout: false }', operations: op('    sideEffect: none') }),
      findings: [{ path: '/operations/0/timeouts/cancelOnTimeout', line: 5, severity: 'error' }],
    },
  ],
});

ruleTester('progress-rate-limit', {
  valid: [
    { name: 'rate-limited', manifest: manifest({ operations: op('    progress: { emits: true, minIntervalMs: 250 }') }) },
    { name: 'one per round trip, the floor', manifest: manifest({ operations: op('    progress: { emits: true, minIntervalMs: 100 }') }) },
    { name: 'no progress', manifest: manifest({ operations: op('    progress: { emits: false }') }) },
  ],
  invalid: [
    {
      name: 'no interval',
      manifest: manifest({ operations: op('    progress: { emits: true }') }),
      findings: [{ path: '/operations/0/progress/minIntervalMs', line: 7 }],
    },
    {
      name: 'an interval of zero',
      manifest: manifest({ operations: op('    progress: { emits: true, minIntervalMs: 0 }') }),
      findings: [{ path: '/operations/0/progress/minIntervalMs', line: 7 }],
    },
    {
      name: '1 ms: a thousand notifications a second is no limit',
      manifest: manifest({ operations: op('    progress: { emits: true, minIntervalMs: 1 }') }),
      findings: [{ path: '/operations/0/progress/minIntervalMs', line: 7, severity: 'warn' }],
    },
  ],
});

ruleTester('progress-monotonic', {
  valid: [{ name: 'monotonic by default', manifest: manifest({ operations: op('    progress: { emits: true }') }) }],
  invalid: [
    {
      name: 'may go back',
      manifest: manifest({ operations: op('    progress: { emits: true, monotonic: false }') }),
      findings: [{ path: '/operations/0/progress/monotonic', line: 7 }],
    },
  ],
});

ruleTester('progress-stops', {
  valid: [{ name: 'stops by default', manifest: manifest({ operations: op('    progress: { emits: true }') }) }],
  invalid: [
    {
      name: 'goes on after completion and after cancellation',
      manifest: manifest({ operations: op('    progress: { emits: true, stopsOnCompletion: false, stopsOnCancellation: false }') }),
      findings: [
        { path: '/operations/0/progress/stopsOnCompletion', line: 7 },
        { path: '/operations/0/progress/stopsOnCancellation', line: 7 },
      ],
    },
  ],
});

ruleTester('progress-interval-below-idle', {
  valid: [
    {
      name: 'progress three times per idle window',
      manifest: manifest({
        operations: op('    timeouts: { idleMs: 30000, resetIdleOnProgress: true }\n    progress: { emits: true, minIntervalMs: 10000 }'),
      }),
    },
    {
      name: 'no progress sent',
      manifest: manifest({ operations: op('    timeouts: { idleMs: 5000 }\n    progress: { emits: false, minIntervalMs: 10000 }') }),
    },
    {
      name: 'no idle timeout to compare with (another rule asks for it)',
      manifest: manifest({ operations: op('    progress: { emits: true, minIntervalMs: 10000 }') }),
    },
    {
      name: 'a Task: its request timeouts apply to each tasks/get poll, not to the progress of the work',
      manifest: manifest({
        operations: op(
          '    timeouts: { idleMs: 5000, maxMs: 60000 }\n    progress: { emits: true, minIntervalMs: 100000 }\n    task: { used: true }',
        ),
      }),
    },
    {
      name: 'a Task from the defaults',
      manifest: manifest({
        defaults: '  task: { used: true }',
        operations: op('    timeouts: { idleMs: 1, maxMs: 60000 }\n    progress: { emits: true, minIntervalMs: 1000 }'),
      }),
    },
    {
      name: 'the longest silence below the idle timeout',
      manifest: manifest({
        operations: op('    timeouts: { idleMs: 30000 }\n    progress: { emits: true, minIntervalMs: 250, maxIntervalMs: 15000 }'),
      }),
    },
    {
      name: 'an idle timeout of 0 is one cause with one finding: deadline-idle-required owns it',
      manifest: manifest({
        operations: op('    timeouts: { idleMs: 0, maxMs: 60000 }\n    progress: { emits: true, minIntervalMs: 250 }'),
      }),
    },
  ],
  invalid: [
    {
      name: 'progress every 10 s against a 5 s idle timeout',
      manifest: manifest({
        operations: op('    timeouts: { idleMs: 5000, maxMs: 60000 }\n    progress: { emits: true, minIntervalMs: 10000 }'),
      }),
      findings: [{ path: '/operations/0/progress/minIntervalMs', line: 8 }],
    },
    {
      name: 'equal: the idle clock fires as the next notification is due',
      manifest: manifest({ operations: op('    timeouts: { idleMs: 5000 }\n    progress: { emits: true, minIntervalMs: 5000 }') }),
      findings: [{ path: '/operations/0/progress/minIntervalMs', line: 8 }],
    },
    {
      name: 'the idle timeout from defaults',
      manifest: manifest({
        defaults: '  timeouts: { idleMs: 1000 }',
        operations: op('    progress: { emits: true, minIntervalMs: 2000 }'),
      }),
      findings: [{ path: '/operations/0/progress/minIntervalMs', line: 9 }],
    },
    {
      name: 'the longest silence between notifications far above the idle timeout',
      manifest: manifest({
        operations: op('    timeouts: { idleMs: 5000 }\n    progress: { emits: true, minIntervalMs: 250, maxIntervalMs: 500000 }'),
      }),
      findings: [{ path: '/operations/0/progress/maxIntervalMs', line: 8 }],
    },
    {
      name: 'the longest silence equal to the idle timeout',
      manifest: manifest({
        operations: op('    timeouts: { idleMs: 15000 }\n    progress: { emits: true, minIntervalMs: 250, maxIntervalMs: 15000 }'),
      }),
      findings: [{ path: '/operations/0/progress/maxIntervalMs', line: 8 }],
    },
    {
      name: 'task.used: false is an ordinary request',
      manifest: manifest({
        operations: op('    timeouts: { idleMs: 5000 }\n    progress: { emits: true, minIntervalMs: 5000 }\n    task: { used: false }'),
      }),
      findings: [{ path: '/operations/0/progress/minIntervalMs', line: 8 }],
    },
  ],
});

ruleTester('progress-interval-order', {
  valid: [
    {
      name: 'a rate limit of 250 ms, a keep-alive of 15 s',
      manifest: manifest({ operations: op('    progress: { emits: true, minIntervalMs: 250, maxIntervalMs: 15000 }') }),
    },
    {
      name: 'equal: progress exactly every interval',
      manifest: manifest({ operations: op('    progress: { emits: true, minIntervalMs: 1000, maxIntervalMs: 1000 }') }),
    },
    { name: 'only a rate limit', manifest: manifest({ operations: op('    progress: { emits: true, minIntervalMs: 250 }') }) },
    {
      name: 'no progress sent',
      manifest: manifest({ operations: op('    progress: { emits: false, minIntervalMs: 250, maxIntervalMs: 5 }') }),
    },
  ],
  invalid: [
    {
      name: 'the longest silence below the rate limit',
      manifest: manifest({ operations: op('    progress: { emits: true, minIntervalMs: 250, maxIntervalMs: 5 }') }),
      findings: [{ path: '/operations/0/progress/maxIntervalMs', line: 7 }],
    },
    {
      name: 'the rate limit from the defaults',
      manifest: manifest({
        defaults: '  progress: { minIntervalMs: 1000 }',
        operations: op('    progress: { emits: true, maxIntervalMs: 500 }'),
      }),
      findings: [{ path: '/operations/0/progress/maxIntervalMs', line: 9 }],
    },
  ],
});

ruleTester('progress-sender', {
  valid: [
    {
      name: '2025: a client answering sampling reports progress',
      manifest: manifest({
        specVersion: '2025-11-25',
        operations: op('    direction: server-to-client\n    progress: { emits: true }', 'sampling/createMessage'),
      }),
    },
    { name: '2026: the server reports progress', manifest: manifest({ operations: op('    progress: { emits: true }') }) },
  ],
  invalid: [
    {
      name: '2026: the client side reports progress, reported at progress.emits',
      manifest: manifest({ operations: op('    direction: server-to-client\n    progress: { emits: true }', 'sampling/createMessage') }),
      findings: [{ path: '/operations/0/progress/emits', line: 8 }],
    },
  ],
});
