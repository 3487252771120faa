import { formatMessage } from '../../document/message-template.js';
import { locate, type PathSegment } from '../../document/source-map.js';
import { placeholderAt } from '../../manifest/placeholders.js';
import type { Violation } from '../violation.js';
import type { RuleFunction } from './rule-function.js';

/** Every value the template wrote for its author to replace (and every DECIDE value), at the value itself. */
export const templatePlaceholders: RuleFunction = (target, context) => {
  const manifest = target.manifest;
  const violations: Violation[] = [];
  const visit = (value: unknown, path: PathSegment[]): void => {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) visit(item, [...path, index]);
    } else if (value !== null && typeof value === 'object')
      for (const [key, item] of Object.entries(value as Record<string, unknown>)) visit(item, [...path, key]);
    else {
      const what = placeholderAt(path, value);
      if (what === undefined) return;
      const data = context.messageData({ value: String(value), what, field: fieldName(path) });
      violations.push({
        messageId: 'default',
        message: formatMessage(context.definition.message, data),
        fix: context.definition.fix,
        severity: context.severity,
        place: { path, locate: (at: 'key' | 'value') => locate(manifest.source, path, at) },
        at: 'value',
        data,
      });
    }
  };
  visit(manifest.manifest, []);
  return violations;
};

/** `operations[0].name`, as a person would write the place. */
function fieldName(path: readonly PathSegment[]): string {
  return path.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join('');
}
