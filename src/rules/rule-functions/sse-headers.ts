import { formatMessage } from '../../findings/finding.js';
import { compileField } from '../target.js';
import type { RuleFunction } from './rule-function.js';

/** Header name (any case) → the value it must have (any case, surrounding spaces ignored). */
const REQUIRED: readonly (readonly [string, string])[] = [
  ['content-type', 'text/event-stream'],
  ['cache-control', 'no-cache'],
  ['x-accel-buffering', 'no'],
];

const sseHeadersField = compileField('http.sseHeaders');

/** server.http.sseHeaders holds the three headers that keep proxies from buffering SSE. Header names are case-insensitive. */
export const sseHeaders: RuleFunction = (target, context) => {
  const declared = (sseHeadersField.read(target) ?? {}) as Record<string, string>;
  const byName = new Map(Object.entries(declared).map(([name, value]) => [name.toLowerCase(), { name, value }]));
  const missing = REQUIRED.filter(([name, value]) => {
    const found = byName.get(name);
    return found === undefined || !found.value.toLowerCase().split(/[,;]/).map((part) => part.trim()).includes(value);
  });
  if (missing.length === 0) return [];
  const headerNames = ['Content-Type', 'Cache-Control', 'X-Accel-Buffering'];
  const expected = missing.map(([name, value]) => `${headerNames[REQUIRED.findIndex(([required]) => required === name)]}: ${value}`).join(', ');
  const present = Object.entries(declared).map(([name, value]) => `${name}: ${value}`).join(', ') || 'nothing';
  // Point at the wrong header's value when one is there, else at the sseHeaders mapping (or its parent).
  const wrong = missing.map(([name]) => byName.get(name)).find((found) => found !== undefined);
  const field = wrong === undefined ? sseHeadersField : compileField(`http.sseHeaders.${wrong.name}`);
  const data = context.messageData({ expected, value: present });
  return [{ messageId: 'default', message: formatMessage(context.definition.message, data), fix: context.definition.fix, severity: context.severity, place: field.place(target), at: 'value', data }];
};
