import { formatMessage } from '../../document/message-template.js';
import { LineIndex } from '../../document/line-index.js';
import type { RuleFunction } from './rule-function.js';

/** Every operation name after its first use is reported, pointing at the repeated name. */
export const uniqueOperationNames: RuleFunction = (target, context) => {
  const manifest = target.manifest;
  const firstSeen = new Map<string, number>();
  const violations = [];
  let lines: LineIndex | undefined;
  for (const operation of manifest.operations) {
    const name = operation.own.name;
    const first = firstSeen.get(name);
    if (first === undefined) {
      firstSeen.set(name, operation.index);
      continue;
    }
    const firstEntry = manifest.operations[first]!.ownSource.entries.get('name')!;
    lines ??= new LineIndex(manifest.text);
    const data = context.messageData({ operation: name, value: name, line: lines.position(firstEntry.value.start).line });
    violations.push({
      messageId: 'default',
      message: formatMessage(context.definition.message, data),
      fix: context.definition.fix,
      severity: context.severity,
      place: { path: ['operations', operation.index, 'name'], locate: (at: 'key' | 'value') => operation.locate(['name'], at) },
      at: 'value' as const,
      data,
    });
  }
  return violations;
};
