import { readFileSync } from 'node:fs';

/**
 * Hostile manifests, generated from the complete example: each class a user (or an attacker writing the
 * manifest a CI job lints) could reach. Every input is a name, its class, and the bytes of the file.
 */
export interface HostileInput {
  readonly name: string;
  readonly kind: HostileClass;
  readonly bytes: Uint8Array;
}

export type HostileClass =
  | 'numbers'
  | 'untrusted text'
  | 'prototype keys'
  | 'aliases'
  | 'size'
  | 'names in paths'
  | 'malformed'
  | 'encodings';

export const BASE = readFileSync('fixtures/examples/billing.yaml', 'utf8');
const encode = (text: string) => new TextEncoder().encode(text);

/** Replaces the one occurrence of `from` (which must be there). */
function replaced(from: string, to: string): string {
  if (!BASE.includes(from)) throw new Error(`the example no longer holds ${JSON.stringify(from)}`);
  return BASE.replace(from, to);
}

/** Numbers the manifest takes, by the text that holds them in the example. */
const NUMERIC_FIELDS: readonly [string, string, string][] = [
  ['buffer capacity', 'progressBuffer: { capacity: 64,', 'progressBuffer: { capacity: $,'],
  ['idle timeout', 'timeouts: { idleMs: 5000, maxMs: 60000 }', 'timeouts: { idleMs: $, maxMs: 60000 }'],
  ['maximum timeout', 'timeouts: { idleMs: 5000, maxMs: 60000 }', 'timeouts: { idleMs: 5000, maxMs: $ }'],
  ['progress interval', 'minIntervalMs: 250,', 'minIntervalMs: $,'],
  ['replicas', 'replicas: 3', 'replicas: $'],
  [
    'retry attempts',
    'maxAttempts: 3\n      newRequestId: true\n      reconcileFirst',
    'maxAttempts: $\n      newRequestId: true\n      reconcileFirst',
  ],
  [
    'backoff base',
    'backoff: { baseMs: 250, capMs: 8000, jitter: full }\n    idempotency',
    'backoff: { baseMs: $, capMs: 8000, jitter: full }\n    idempotency',
  ],
  [
    'backoff cap',
    'backoff: { baseMs: 250, capMs: 8000, jitter: full }\n    idempotency',
    'backoff: { baseMs: 250, capMs: $, jitter: full }\n    idempotency',
  ],
  ['keep-alive', 'keepaliveMs: 15000', 'keepaliveMs: $'],
  ['proxy idle timeout', 'proxyIdleTimeoutMs: 60000', 'proxyIdleTimeoutMs: $'],
  ['task poll interval', 'pollIntervalMs: 5000', 'pollIntervalMs: $'],
];
const NUMBERS = [
  '0',
  '1',
  '2',
  '3',
  '2147483648',
  '4294967296',
  '10000000',
  '1000000000000000',
  '9007199254740991',
  '9007199254740993',
  '1e300',
  '1e400',
  '1e-400',
  '-1',
  '0.5',
  '.inf',
];

/** Payloads that must never reach a terminal, a log or a Markdown file as structure. */
export const UNSAFE_TEXT: readonly [string, string][] = [
  ['escape sequences', '\\e[2J\\e[31mRED\\e[0m'],
  ['a forged finding line', '\\nevil.yaml:1:1: error: all good [manifest-syntax]'],
  ['carriage return', 'ok\\rFORGED'],
  ['C1 control', '\\x9b31m'],
  ['right-to-left override', 'abc\\u202Edef'],
  ['bidi isolate', '\\u2066x\\u2069'],
  ['line separator', 'a\\u2028b'],
  ['byte order mark', '\\uFEFFx'],
  ['DEL', 'a\\x7Fb'],
  ['a Markdown table row', '| forged | row |\\n| --- |'],
];

const TEXT_PLACES: readonly [string, (payload: string) => string][] = [
  ['server name', (payload) => replaced('  name: billing\n', `  name: "billing ${payload}"\n`)],
  [
    'operation description',
    (payload) =>
      replaced('description: Charges an account a number of cents through the payment provider.', `description: "Charges ${payload}"`),
  ],
  [
    'refetch entry',
    (payload) => replaced('refetch: ["resources/read ledger://accounts/{account}"]', `refetch: ["resources/read ${payload}"]`),
  ],
  ['unknown key', (payload) => replaced('    sideEffect: mutation\n', `    sideEffect: mutation\n    "k${payload}": 1\n`)],
  [
    'ignore reason',
    (payload) =>
      replaced(
        '    sideEffect: mutation\n',
        `    sideEffect: mutation\n    x-mcprely-ignore: [{ rule: sse-headers-required, reason: "because ${payload}" }]\n`,
      ),
  ],
  ['enum value', (payload) => replaced('    sideEffect: mutation\n', `    sideEffect: "mutation${payload}"\n`)],
];

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'];
const MAPPINGS: readonly [string, string, string][] = [
  ['top level', 'mcprely: 1\n', ''],
  ['server', '  replicas: 3\n', '  '],
  ['server.http', '    keepaliveMs: 15000\n', '    '],
  ['defaults', '  progress:\n    emits: false\n', '  '],
  ['defaults.timeouts', '    idleMs: 30000\n', '    '],
  ['an operation', '    sideEffect: mutation\n', '    '],
  ['retry', '      maxAttempts: 3\n', '      '],
  ['idempotency', '      keyArgument: idempotencyKey\n', '      '],
  ['task', '      used: true\n', '      '],
];

function operations(count: number, extra = ''): string {
  let text = '';
  for (let index = 0; index < count; index++)
    text += `  - name: op${index}\n    method: tools/call\n    sideEffect: none\n    timeouts: { idleMs: 1000, maxMs: 2000 }\n${extra}`;
  return text;
}

/** Every hostile input, at least 300, each class represented. */
export function hostileInputs(): HostileInput[] {
  const inputs: HostileInput[] = [];
  const add = (kind: HostileClass, name: string, text: string | Uint8Array) =>
    inputs.push({ kind, name, bytes: typeof text === 'string' ? encode(text) : text });

  for (const [field, from, pattern] of NUMERIC_FIELDS)
    for (const number of NUMBERS) add('numbers', `${field} ${number}`, replaced(from, pattern.replace('$', number)));
  add(
    'numbers',
    'idle 1 ms under a maximum of 100000000 ms',
    replaced('timeouts: { idleMs: 5000, maxMs: 60000 }', 'timeouts: { idleMs: 1, maxMs: 100000000 }'),
  );
  add(
    'numbers',
    'keep-alive 1 ms behind a proxy idle of 10^15 ms',
    replaced('keepaliveMs: 15000', 'keepaliveMs: 1').replace('proxyIdleTimeoutMs: 60000', 'proxyIdleTimeoutMs: 1000000000000000'),
  );

  for (const [place, write] of TEXT_PLACES)
    for (const [payload, text] of UNSAFE_TEXT) add('untrusted text', `${payload} in the ${place}`, write(text));

  for (const [where, anchor, indent] of MAPPINGS)
    for (const key of PROTOTYPE_NAMES) add('prototype keys', `${key} in ${where}`, replaced(anchor, `${anchor}${indent}${key}: 1\n`));

  const long = 'x'.repeat(900_000);
  const anchored = (text: string) =>
    BASE.replace('description: Charges an account a number of cents through the payment provider.', `description: &big "${text}"`);
  add('aliases', 'a 900 KB string aliased 200 times', `${anchored(long)}${operations(200, '    description: *big\n')}`);
  add('aliases', 'a 100 KB string aliased 100 times', `${anchored('y'.repeat(100_000))}${operations(100, '    description: *big\n')}`);
  let laughs = 'x-laughs:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
  for (let level = 1; level < 9; level++)
    laughs += `  l${level}: &l${level} [${Array.from({ length: 10 }, () => `*l${level - 1}`).join(', ')}]\n`;
  add('aliases', 'a billion laughs', `${BASE}${laughs}`.replace('operations:', `${laughs}operations:`));
  add('aliases', 'an alias of an unknown anchor', replaced('    sideEffect: mutation\n', '    sideEffect: *nothing\n'));
  add('aliases', 'a merge key', replaced('    sideEffect: mutation\n', '    <<: { sideEffect: mutation }\n'));

  for (const count of [100, 1000, 3000]) add('size', `${count} operations`, `${BASE}${operations(count)}`);
  add('size', 'a 200-character operation name', replaced('name: charge_account', `name: ${'a'.repeat(200)}`));
  add('size', 'a 5000-character operation name', replaced('name: charge_account', `name: ${'a'.repeat(5000)}`));
  add(
    'size',
    'a 100000-character unknown key',
    replaced('    sideEffect: mutation\n', `    sideEffect: mutation\n    ${'k'.repeat(100_000)}: 1\n`),
  );
  add('size', 'nesting 100 deep', `${BASE}x-deep: ${'['.repeat(100)}${']'.repeat(100)}\n`);
  add('size', 'a file over the size limit', `${BASE}# ${'z'.repeat(2 * 1024 * 1024)}\n`);
  add('size', 'a 1.5 MB comment', `${BASE}# ${'z'.repeat(1_500_000)}\n`);

  for (const name of [
    '../../escaped',
    '../../../../../../tmp/escaped',
    'a/b/c',
    '..',
    '.',
    '/abs',
    'x:y',
    '%2e%2e',
    '.hidden',
    'a..b',
    'trailing.',
  ])
    add('names in paths', `operation named ${JSON.stringify(name)}`, replaced('name: charge_account', `name: "${name}"`));

  add('malformed', 'empty', '');
  add('malformed', 'only ---', '---\n');
  add('malformed', 'only a comment', '# nothing\n');
  add('malformed', 'two documents', `${BASE}---\nmcprely: 1\n`);
  add('malformed', 'a list at the top', '- a\n- b\n');
  add('malformed', 'JSON null', 'null');
  add('malformed', 'JSON with a trailing comma', '{"mcprely": 1,}');
  add('malformed', 'an unclosed flow mapping', 'mcprely: 1\nserver: { name: x\n');
  add('malformed', 'a tab indent', 'mcprely: 1\nserver:\n\tname: x\n');
  add('malformed', 'a duplicate key', 'mcprely: 1\nmcprely: 1\n');
  for (let cut = 1; cut <= 40; cut++)
    add('malformed', `the example cut at ${cut * 2.5}%`, BASE.slice(0, Math.floor((BASE.length * cut) / 40)));
  const json = JSON.stringify({ mcprely: 1, specVersion: '2026-07-28', server: { name: 's', transports: ['stdio'] }, operations: [] });
  for (let cut = 1; cut < 12; cut++) add('malformed', `JSON cut at ${cut}/12`, json.slice(0, Math.floor((json.length * cut) / 12)));

  add('encodings', 'UTF-16 LE with a BOM', new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(BASE, 'utf16le'))]));
  add('encodings', 'a UTF-8 BOM', `\ufeff${BASE}`);
  add('encodings', 'CRLF line ends', BASE.replace(/\n/g, '\r\n'));
  add('encodings', 'a NUL byte', new Uint8Array([...encode('mcprely: 1\n'), 0, ...encode('x')]));
  add('encodings', 'invalid UTF-8', new Uint8Array([...encode('mcprely: 1\nserver: { name: "'), 0xc3, 0x28, ...encode('" }\n')]));
  add('encodings', 'a lone surrogate escaped in JSON', '{"mcprely": 1, "x-a": "\\ud800"}');
  add('encodings', 'unicode names', replaced('  name: billing\n', '  name: "账单 ✓ 🧾"\n'));
  return inputs;
}

/** Characters no human format may print raw (a newline ends a line, which is its job; everything else listed here is escaped). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters being looked for.
export const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;
