import { formatMessage } from '../../document/message-template.js';
import { missingSseHeaders } from '../../reference/recovery.js';
import { compileField } from '../target.js';
import type { RuleFunction } from './rule-function.js';

const sseHeadersField = compileField('http.sseHeaders');

/** server.http.sseHeaders holds the three headers that keep proxies from buffering SSE (names case-insensitive). */
export const sseHeaders: RuleFunction = (target, context) => {
  const declared = (sseHeadersField.read(target) ?? {}) as Record<string, string>;
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
  const data = context.messageData({ expected: missing.join(', '), value: present });
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
