import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli, showsStackTrace } from '../helpers/run-cli.js';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

describe('the mcprely binary', () => {
  it('prints its version', () => {
    const run = runCli(['--version']);
    expect(run).toMatchObject({ status: 0, stdout: `${version}\n` });
  });

  it('prints help that lists the commands', () => {
    const run = runCli(['--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Usage: mcprely/);
    expect(run.stdout).toMatch(/lint \[options\] \[paths\.\.\.\]/);
  });

  it.each([
    [['lint'], /missing required argument 'paths'/],
    [['lint', 'x.yaml', '--format', 'xml'], /argument 'xml' is invalid/],
    [['lnt'], /unknown command 'lnt'.*\n.*Did you mean lint\?/],
    [['lint', 'x.yaml', '--colour'], /unknown option '--colour'/],
  ])('exits 2 on the usage error %j', (args, message) => {
    const run = runCli(args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(showsStackTrace(run.stderr)).toBe(false);
  });

  it('lints the complete example clean and says so', () => {
    const run = runCli(['lint', 'fixtures/examples/billing.yaml']);
    expect(run).toMatchObject({ status: 0, stdout: 'No findings in 1 file.\n' });
  });

  it('writes the report to --output instead of standard output', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const out = `${mkdtempSync(`${tmpdir()}/mcprely-`)}/report.json`;
    const run = runCli(['lint', 'fixtures/examples/billing.yaml', '--format', 'json', '--output', out]);
    expect(run).toMatchObject({ status: 0, stdout: '' });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({
      version: 1,
      tool: { name: 'mcprely', version },
      summary: { files: 1, errors: 0 },
    });
  });
});
