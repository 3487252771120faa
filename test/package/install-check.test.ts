import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  API_BEGIN,
  API_END,
  apiExample,
  BEGIN,
  concrete,
  END,
  installCommands,
  VERSION_PLACEHOLDER,
} from '../../scripts/install-check.mjs';
import { REPO_ROOT } from '../helpers/run-cli.js';

// The install itself (pack, install, build better-sqlite3: minutes) is scripts/install-check.mjs, run by CI.
// These check, in milliseconds, that the README's install block is one that script can run as written.
const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const script = readFileSync(join(REPO_ROOT, 'scripts/install-check.mjs'), 'utf8');
const commands: string[] = installCommands(readme);

describe("the README's install block and scripts/install-check.mjs", () => {
  it('has one begin and one end marker, in order, in "Installing it in your project", around one sh block', () => {
    const section = readme.slice(
      readme.indexOf('### Installing it in your project'),
      readme.indexOf('\n## ', readme.indexOf('### Installing')),
    );
    expect(readme.split(BEGIN)).toHaveLength(2);
    expect(readme.split(END)).toHaveLength(2);
    expect(section.indexOf(BEGIN)).toBeGreaterThan(0);
    expect(section.indexOf(END)).toBeGreaterThan(section.indexOf(BEGIN));
    const between = section.slice(section.indexOf(BEGIN) + BEGIN.length, section.indexOf(END)).trim();
    expect(between).toMatch(/^```sh\n[\s\S]*\n```$/);
    // Every line of the block that is not a comment is a command the script runs (comments are stripped).
    const lines = between
      .split('\n')
      .slice(1, -1)
      .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
    expect(commands).toHaveLength(lines.length);
    for (const [index, line] of lines.entries()) expect(line.startsWith(commands[index]!), line).toBe(true);
  });

  it('is commands a person can paste one at a time: npm or npx mcprely, no shell operators, only the version to fill in', () => {
    expect(commands.length).toBeGreaterThanOrEqual(4);
    for (const command of commands) {
      expect(command, command).toMatch(/^(npm|npx mcprely) /);
      expect(command, command).not.toMatch(/&&|\|\||[|;`$]|>\s|\s</);
      expect(concrete(command, '1.2.3'), command).not.toMatch(/<[^>]*>/);
    }
    expect(commands.filter((command) => command.includes(VERSION_PLACEHOLDER))).toEqual([
      `npm install --save-dev --ignore-scripts ./mcprely-${VERSION_PLACEHOLDER}.tgz`,
    ]);
    expect(concrete(commands[0]!, '1.2.3')).toBe('npm install --save-dev --ignore-scripts ./mcprely-1.2.3.tgz');
  });

  it('installs with scripts held, then approves better-sqlite3, then builds it, then runs mcprely (the order npm 11 needs)', () => {
    const at = (pattern: RegExp) => commands.findIndex((command) => pattern.test(command));
    const install = at(/^npm install .*--ignore-scripts .*mcprely-/);
    const approve = at(/^npm install-scripts approve better-sqlite3$/);
    const rebuild = at(/^npm rebuild better-sqlite3$/);
    const run = at(/^npx mcprely /);
    expect(install).toBe(0);
    expect(approve).toBeGreaterThan(install);
    expect(rebuild).toBeGreaterThan(approve);
    expect(run).toBeGreaterThan(rebuild);
  });

  it('is read and run by the script, which also packs as the README says and runs lint, review, verify and evidence', () => {
    expect(script).toContain('installCommands(readme)');
    expect(script).toMatch(/for \(const \[index, command\] of commands\.entries\(\)\)/);
    expect(readme).toMatch(/^npm ci && npm pack +# in the checkout/m);
    expect(script).toContain('npm pack --pack-destination');
    for (const sub of ['lint', 'review', 'verify', 'evidence']) expect(script, sub).toContain(`'npx mcprely ${sub} `);
    expect(readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8')).toMatch(/^node scripts\/install-check\.mjs$/m);
  });

  it('refuses a README without the markers or without a block between them', () => {
    expect(() => installCommands('# no install block here')).toThrow(/no install block/);
    expect(() => installCommands(`${BEGIN}\nnpm install x\n${END}`)).toThrow(/no ```sh fenced block/);
    expect(installCommands(`${BEGIN}\n\`\`\`sh\n# a comment\nnpm ci   # and why\n\n\`\`\`\n${END}`)).toEqual(['npm ci']);
  });

  it("holds one Node API example the script type-checks and runs: a ts block that imports mcprely's API", () => {
    expect(readme.split(API_BEGIN)).toHaveLength(2);
    expect(readme.split(API_END)).toHaveLength(2);
    expect(apiExample(readme)).toMatch(/^import \{ lint \} from 'mcprely';$/m);
    expect(() => apiExample(readme.replace(API_BEGIN, ''))).toThrow(/no Node API example/);
  });
});
