import type { OperationSpec } from '../manifest/types.js';
import { classifyRetry, type RetryClassification } from '../reference/classify-retry.js';

/** The retry class of a manifest operation. An undeclared side effect is treated as a mutation: the safe assumption. */
export function retryClassOf(spec: OperationSpec): RetryClassification {
  const key = spec.idempotency?.keyArgument;
  return classifyRetry({ sideEffect: spec.sideEffect ?? 'mutation', ...(key === undefined ? {} : { idempotencyKeyArgument: key }) });
}
