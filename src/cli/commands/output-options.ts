import { InvalidArgumentError, Option } from 'commander';
import type { OutputSpecs } from '../output-spec.js';

/** `-f, --format <name>` (repeatable) of a command that writes findings: each format goes to `outputs`. */
export function formatOption(outputs: OutputSpecs): Option {
  return new Option('-f, --format <name>', 'output format: stylish, json, sarif, github, junit, markdown, gitlab (repeatable)').argParser(
    collect((name) => outputs.addFormat(name)),
  );
}

/** `-o, --output <file>` (repeatable): the file the preceding --format goes to. */
export function outputOption(outputs: OutputSpecs): Option {
  return new Option('-o, --output <file>', 'write the preceding --format to a file (repeatable)').argParser(
    collect((file) => outputs.addOutput(file)),
  );
}

/** A repeatable option whose values are handed, in command-line order, to `take`. */
function collect(take: (value: string) => void): (value: string) => true {
  return (value) => {
    try {
      take(value);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
    return true;
  };
}
