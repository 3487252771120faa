import type { Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';

// The build defines mcprely's version; from source it is a global of the test's own.
vi.stubGlobal('MCPRELY_VERSION', '0.0.0-test');
const { buildProgram, COMMAND_NAMES } = await import('../../src/cli/main.js');

/** A command's help and every option (flags, default, choices), as a user or commander's parser sees them. */
function shape(command: Command): unknown {
  return {
    help: command.helpInformation(),
    options: command.options.map((option) => ({
      flags: option.flags,
      default: option.defaultValue as unknown,
      choices: option.argChoices,
      negate: option.negate,
    })),
    arguments: command.registeredArguments.map((argument) => [argument.name(), argument.required, argument.variadic]),
  };
}

describe('the program built for one command', () => {
  it('lists every command the full program has, in its order', () => {
    expect(buildProgram().commands.map((command) => command.name())).toEqual([...COMMAND_NAMES]);
  });

  it('has that command alone, the same as in the full program (help, options, arguments)', () => {
    const full = buildProgram();
    for (const name of COMMAND_NAMES) {
      const alone = buildProgram(name);
      expect(
        alone.commands.map((command) => command.name()),
        name,
      ).toEqual([name]);
      expect(shape(alone.commands[0]!), name).toEqual(shape(full.commands.find((command) => command.name() === name)!));
    }
  });
});
