import { declareProbeCheck } from '../probe-check-declaration.js';

export const idempotentReplay = declareProbeCheck({
  id: 'idempotent-replay',
  title: 'one idempotency key: the same arguments replay, changed arguments are refused',
  description:
    'Only with --allow-mutations and a manifest operation that names its idempotency key argument: the same key and ' +
    'arguments twice give one result; the same key with changed arguments is refused.',
  basis: 'the lesson: same key + same fingerprint → the stored result; same key + other arguments → rejected',
  fix: 'store each key with a fingerprint of its arguments: replay the stored result for the same arguments, refuse the key with others',
  outcomes: ['pass', 'fail', 'inconclusive'],
  messages: {
    notRun: 'not run: calling a mutation needs --allow-mutations and a manifest operation that names its idempotency key argument',
    unanswered: '{{tool}} was not answered: {{why}}',
    firstFailed: 'the first call failed with {{failure}}',
    differentResults: 'the same key and arguments gave two different results: {{first}} then {{second}}',
    changedAccepted: 'the same key with changed arguments ({{arguments}}) was accepted: {{answer}}',
    replayed: 'the replay returned the first result; the changed arguments were refused',
  },
  asserts: [],
  putsCallInFlight: true,
});
