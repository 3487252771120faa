import { keepaliveBelowProxyIdle } from './keepalive-below-proxy-idle.js';
import type { RuleFunction } from './rule-function.js';
import { sseHeaders } from './sse-headers.js';
import { templatePlaceholders } from './template-placeholders.js';
import { uniqueOperationNames } from './unique-operation-names.js';

/** TypeScript rule functions by the name rules/<id>.yaml gives in `function:`. */
export const RULE_FUNCTIONS: Readonly<Record<string, RuleFunction>> = {
  'keepalive-below-proxy-idle': keepaliveBelowProxyIdle,
  'sse-headers': sseHeaders,
  'template-placeholders': templatePlaceholders,
  'unique-operation-names': uniqueOperationNames,
};
