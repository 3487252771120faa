import { InvalidArgumentError, Option } from 'commander';
import type { Severity } from '../../findings/finding.js';

const SEVERITIES: readonly Severity[] = ['error', 'warn', 'info'];

/** `--fail-severity <level>`: the least severe finding that fails the run. */
export function failSeverityOption(description: string, byDefault: Severity): Option {
  return new Option('--fail-severity <level>', description).choices(SEVERITIES).default(byDefault);
}

/** An option parser whose Error becomes commander's usage error (exit 2). */
export function asUsage<T>(parse: (value: string) => T): (value: string) => T {
  return (value) => {
    try {
      return parse(value);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}
