import { describe, expect, it } from 'vitest';
import { lintText, manifest } from '../helpers/lint-text.js';

// What the findings say, where the case tables only compare places: an absent field is "nothing says …", an
// explicit value is what the policy says; one cause gives one finding however many rules look at the field;
// the sender's and the receiver's progress rate limits are reported the same way.
const op = (fields: string, method = 'tools/call') => `  - name: job\n    method: ${method}\n${fields}`;
const HTTP = '{ name: s, transports: [streamable-http] }';
const TENANTS = '{ name: s, transports: [stdio], tenancy: multi }';
const mutation = (fields: string) => op(`    sideEffect: mutation\n${fields}`);

interface WordingCase {
  readonly name: string;
  readonly rule: string;
  readonly manifest: string;
  /** The finding's JSON Pointer (the case expects exactly one finding of the rule there). */
  readonly path: string;
  readonly says: RegExp;
  readonly never: RegExp;
}

const NOTHING_SAYS = /nothing says/;

const WORDING: readonly WordingCase[] = [
  {
    name: 'listen filter absent: nothing says',
    rule: 'recovery-listen-restore',
    manifest: manifest({
      server: HTTP,
      operations: op('    recovery: { reconnect: { carriesToolName: false }, dedupeBy: id }', 'subscriptions/listen'),
    }),
    path: '/operations/0/recovery/reconnect/restoresFilter',
    says: /nothing says the re-issued subscriptions\/listen restores the subscription filter/,
    never: /policy says/,
  },
  {
    name: 'listen filter false: the policy says it does not restore it',
    rule: 'recovery-listen-restore',
    manifest: manifest({
      server: HTTP,
      operations: op(
        '    recovery: { reconnect: { restoresFilter: false, carriesToolName: false }, dedupeBy: id }',
        'subscriptions/listen',
      ),
    }),
    path: '/operations/0/recovery/reconnect/restoresFilter',
    says: /the policy says the re-issued subscriptions\/listen does not restore the subscription filter \(recovery\.reconnect\.restoresFilter: false\)/,
    never: NOTHING_SAYS,
  },
  {
    name: 'task store absent: nothing says where task state is kept',
    rule: 'task-durable-state',
    manifest: manifest({ operations: op('    task: { used: true, survivesDisconnect: true }') }),
    path: '/operations/0/task/store',
    says: /job: nothing says where its task state is kept \(task\.store\)/,
    never: /not set/,
  },
  {
    name: 'task store in memory: named',
    rule: 'task-durable-state',
    manifest: manifest({ operations: op('    task: { used: true, store: in-memory, survivesDisconnect: true }') }),
    path: '/operations/0/task/store',
    says: /job keeps task state in-memory: a restart loses every task/,
    never: NOTHING_SAYS,
  },
  {
    name: 'task surviving a disconnect absent: nothing says',
    rule: 'task-durable-state',
    manifest: manifest({ operations: op('    task: { used: true, store: durable }') }),
    path: '/operations/0/task/survivesDisconnect',
    says: /job: nothing says its task state outlives the connection that created it \(task\.survivesDisconnect\)/,
    never: /does not outlive/,
  },
  {
    name: 'task surviving a disconnect false: it does not',
    rule: 'task-durable-state',
    manifest: manifest({ operations: op('    task: { used: true, store: durable, survivesDisconnect: false }') }),
    path: '/operations/0/task/survivesDisconnect',
    says: /task state does not outlive the connection that created it/,
    never: NOTHING_SAYS,
  },
  {
    name: 'ledger store absent: nothing says where',
    rule: 'idem-ledger-durable',
    manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key }') }),
    path: '/operations/0/idempotency/ledger/store',
    says: /job: nothing says where its idempotency records are kept \(idempotency\.ledger\.store\)/,
    never: /not set/,
  },
  {
    name: 'ledger in memory: named',
    rule: 'idem-ledger-durable',
    manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, ledger: { store: memory } }') }),
    path: '/operations/0/idempotency/ledger/store',
    says: /job keeps idempotency records in memory, which a restart erases/,
    never: NOTHING_SAYS,
  },
  {
    name: 'key scope absent on a shared server: nothing says',
    rule: 'idem-key-scope',
    manifest: manifest({ server: TENANTS, operations: mutation('    idempotency: { keyArgument: key }') }),
    path: '/operations/0/idempotency/keyScope',
    says: /job: the server is shared by tenants, and nothing says its idempotency keys are scoped to a tenant or grant \(idempotency\.keyScope\)/,
    never: /not set/,
  },
  {
    name: 'key scope global on a shared server: named',
    rule: 'idem-key-scope',
    manifest: manifest({ server: TENANTS, operations: mutation('    idempotency: { keyArgument: key, keyScope: global }') }),
    path: '/operations/0/idempotency/keyScope',
    says: /its idempotency keys are global \(not scoped to a tenant or grant\)/,
    never: NOTHING_SAYS,
  },
];

describe('findings word an absent field and an explicit value differently', () => {
  it.each(WORDING.map((testCase) => [testCase.name, testCase] as const))('%s', (_, testCase) => {
    const found = lintText(testCase.manifest, [testCase.rule]).filter((finding) => finding.path === testCase.path);
    expect(found.map((finding) => finding.ruleId)).toEqual([testCase.rule]);
    expect(found[0]!.message).toMatch(testCase.says);
    expect(found[0]!.message).not.toMatch(testCase.never);
  });
});

interface OneCauseCase {
  readonly name: string;
  readonly manifest: string;
  /** Every finding of every rule that names this field in its message or points at it. */
  readonly field: string;
  readonly expected: readonly { readonly ruleId: string; readonly path: string }[];
}

const ONE_CAUSE: readonly OneCauseCase[] = [
  {
    name: 'timeouts.idleMs: 0 with progress: deadline-idle-required only',
    manifest: manifest({ operations: op('    timeouts: { idleMs: 0, maxMs: 60000 }\n    progress: { emits: true, minIntervalMs: 250 }') }),
    field: 'timeouts.idleMs',
    expected: [{ ruleId: 'deadline-idle-required', path: '/operations/0/timeouts/idleMs' }],
  },
  {
    name: 'timeouts.idleMs: 0 on a long HTTP call with steady progress: deadline-idle-required only',
    manifest: manifest({
      server: HTTP,
      operations: op(
        '    timeouts: { idleMs: 0, maxMs: 900000 }\n    progress: { emits: true, minIntervalMs: 1000, maxIntervalMs: 15000 }',
      ),
    }),
    field: 'timeouts.idleMs',
    expected: [{ ruleId: 'deadline-idle-required', path: '/operations/0/timeouts/idleMs' }],
  },
  {
    name: 'timeouts.idleMs from the defaults is 0: one finding, at the defaults',
    manifest: manifest({
      defaults: '  timeouts: { idleMs: 0 }',
      operations: op('    timeouts: { maxMs: 60000 }\n    progress: { emits: true, minIntervalMs: 250 }'),
    }),
    field: 'timeouts.idleMs',
    expected: [{ ruleId: 'deadline-idle-required', path: '/operations/0/timeouts/idleMs' }],
  },
];

describe('one cause, one finding (every rule on)', () => {
  it.each(ONE_CAUSE.map((testCase) => [testCase.name, testCase] as const))('%s', (_, testCase) => {
    const pointer = `/operations/0/${testCase.field.replace(/\./g, '/')}`;
    const about = lintText(testCase.manifest).filter(
      (finding) => finding.path === pointer || finding.message.includes(`${testCase.field}`) || finding.data['other'] === '0',
    );
    expect(about.map((finding) => ({ ruleId: finding.ruleId, path: finding.path }))).toEqual(testCase.expected);
  });
});

describe("the sender's and the receiver's progress rate limits are reported the same way", () => {
  const cases = [
    ['absent', '    progress: { emits: true }'],
    ['zero', '    progress: { emits: true, minIntervalMs: 0, receiverMinIntervalMs: 0 }'],
  ] as const;
  it.each(cases)('%s', (kind, fields) => {
    const found = lintText(manifest({ operations: op(fields) }), ['progress-rate-limit', 'progress-receiver-rate-limit']);
    const sender = found.find((finding) => finding.ruleId === 'progress-rate-limit');
    const receiver = found.find((finding) => finding.ruleId === 'progress-receiver-rate-limit');
    expect(found).toHaveLength(2);
    expect(sender?.path).toBe('/operations/0/progress/minIntervalMs');
    expect(receiver?.path).toBe('/operations/0/progress/receiverMinIntervalMs');
    expect(receiver?.severity).toBe(sender?.severity);
    expect(receiver?.range?.start.line).toBe(sender?.range?.start.line);
    expect(receiver?.suggestion).toEqual(sender?.suggestion);
    if (kind === 'zero') {
      expect(sender?.message).toMatch(/^job: progress\.minIntervalMs of 0 ms is no rate limit: below 100 ms /);
      expect(receiver?.message).toMatch(/^job: progress\.receiverMinIntervalMs of 0 ms is no rate limit: below 100 ms /);
    }
  });
});
