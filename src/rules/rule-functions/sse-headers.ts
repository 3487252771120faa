import { formatMessage } from '../../document/message-template.js';
import { UNSET_VALUE } from '../../findings/rule-verification.js';
import { missingSseHeaders } from '../../reference/recovery.js';
import { compileField } from '../target.js';
import type { RuleFunction } from './rule-function.js';

const sseHeadersField = compileField('http.sseHeaders');

/** server.http.sseHeaders holds the three headers that keep proxies from buffering SSE (names case-insensitive). */
export const sseHeaders: RuleFunction = (target, context) => {
  const given = sseHeadersField.read(target) as Record<string, string> | undefined;
  const declared = given ?? {};
  const missing = missingSseHeaders(declared);
  if (missing.length === 0) return [];
  const present =
    Object.entries(declared)
      .map(([name, value]) => `${name}: ${value}`)
      .join(', ') || 'nothing';
  // Point at a wrong header's value when one is declared, else at the sseHeaders mapping (or its parent).
  const wrong = Object.keys(declared).find((name) =>
    missing.some((requirement) => requirement.toLowerCase().startsWith(`${name.toLowerCase()}:`)),
  );
  const field = wrong === undefined ? sseHeadersField : compileField(`http.sseHeaders.${wrong}`);
  // {value} is `not set` when the server declares no sseHeaders at all (see the rule's verification.whenUnset).
  const data = context.messageData({ expected: missing.join(', '), declared: present, value: given === undefined ? UNSET_VALUE : present });
  return [
    {
      messageId: 'default',
      message: formatMessage(context.definition.message, data),
      fix: context.definition.fix,
      severity: context.severity,
      place: field.place(target),
      at: 'value',
      data,
    },
  ];
};
