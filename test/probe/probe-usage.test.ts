import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runCliAsync, showsStackTrace } from '../helpers/run-cli.js';
import { freePort, HOSTILE, SERVERS, startHttp, stopServers } from './probe-harness.js';

afterAll(stopServers);

/** Bad input: a clear message, exit 2, quickly, in little memory (the probe runs with a 64 MB heap), no stack trace. */
async function refused(args: readonly string[], message: RegExp): Promise<void> {
  const run = await runCliAsync(['probe', ...args], { nodeOptions: ['--max-old-space-size=64'] });
  expect(run.stdout + run.stderr).toMatch(message);
  expect(run.status, run.stdout + run.stderr).toBe(2);
  // Before the handshake's 10 s limit: refused at once, not after waiting for a server (a CLI start on a loaded
  // 2-core machine took 5.5 s, so the bound sits under the limit it tells apart, not at a quiet machine's figure).
  expect(run.ms).toBeLessThan(9000);
  expect(showsStackTrace(run.stdout + run.stderr)).toBe(false);
}

describe.concurrent('probe: bad input gets a clear, immediate error and exit 2', () => {
  it.each([
    [['--stdio', ''], /--stdio "": the command is empty/],
    [['--stdio', 'node "x'], /the command has an unclosed double quote/],
    [['--url', 'http://127.0.0.1:99999/mcp'], /the port 99999 is out of range \(1 to 65535\)/],
    [['--url', 'ftp://127.0.0.1/mcp'], /is not an http:\/\/ or https:\/\/ URL/],
    [[], /give exactly one of --stdio/],
    [['--stdio', 'x', '--url', 'http://127.0.0.1:1/mcp'], /give exactly one of --stdio/],
    [['--stdio', 'node x.js', '--arguments', '[1]'], /expected a JSON object/],
    [['--stdio', 'node x.js', '--max-time', '0'], /--max-time <ms>.*expected a whole number above 0/],
    [['--stdio', 'definitely-not-a-program-mcprely'], /the program "definitely-not-a-program-mcprely" was not found/],
    [['--stdio', 'yes'], /the program is not an MCP server: it wrote 100 line\(s\) that are not JSON-RPC before answering its handshake/],
    [['--stdio', 'cat'], /the program is not an MCP server: it echoed the probe's initialize request back/],
    [['--url', 'http://127.0.0.1:9/mcp'], /the port is one the Fetch standard blocks/],
  ])('%j', async (args, message) => refused(args, message));

  // A --header's value may be a credential: the message names the header (or its place), never the value.
  it.each([
    [['--header', 'Bearer value-secret'], /--header \(the 1st\) has no colon: give it as "Name: value"/],
    [['--header', 'X-A: 1', '--header', 'Bad Name: value-secret'], /--header \(the 2nd\): the name before the colon is not a header name/],
    [['--header', 'Host: value-secret'], /--header Host: the Host header is the endpoint's own/],
    [['--header', 'Connection: value-secret'], /--header Connection: a hop-by-hop header/],
    [['--header', 'Mcp-Session-Id: value-secret'], /--header Mcp-Session-Id: mcprely sets this header on each request itself/],
    [['--header', 'X-Key: 1', '--header', 'x-key: value-secret'], /--header x-key is given twice/],
  ])('--url with --header %j', async (headers, message) => {
    const run = await runCliAsync(['probe', '--url', 'http://127.0.0.1:1/mcp', ...headers]);
    expect(run.stderr).toMatch(message);
    expect(run.stdout + run.stderr).not.toMatch(/value-secret/);
    expect(run.status).toBe(2);
    expect(showsStackTrace(run.stderr)).toBe(false);
  });

  it('--header is refused over stdio (a server over stdio reads no headers)', async () => {
    await refused(['--stdio', 'node x.js', '--header', 'X-Key: 1'], /--header is for an HTTP endpoint \(--url\)/);
  });

  it('a URL in an error is shown without its credentials and query', async () => {
    const run = await runCliAsync(['probe', '--url', 'http://user:pass-secret@127.0.0.1:99999/mcp?token=query-secret']);
    expect(run.stderr).toMatch(/--url http:\/\/\[redacted\]@127\.0\.0\.1:99999\/mcp\?\[redacted\]: the port 99999 is out of range/);
    expect(run.stderr).not.toMatch(/secret/);
  });

  it('a refused connection says so', async () => {
    await refused(['--url', `http://127.0.0.1:${await freePort()}/mcp`], /the POST failed: connection refused \(nothing listens there\)/);
  });

  it('--operation naming a tool the server lacks lists the tools it has', async () => {
    await refused(
      ['--stdio', `node ${HOSTILE} none`, '--operation', 'no_such_tool'],
      /the server lists no tool named no_such_tool; it lists slow_job/,
    );
  });

  it('--operation naming a tool that may change state needs --allow-mutations', async () => {
    await refused(
      ['--stdio', `node ${HOSTILE} no-safe-tools`, '--operation', 'long_export'],
      /long_export may change state .*pass --allow-mutations/,
    );
  });
});

describe('probe: the choice of tool and its reason are in every output format', () => {
  it('stylish, json, sarif, github, junit and markdown all name the tool and why', { timeout: 60_000 }, async () => {
    const server = await startHttp([HOSTILE, 'destructive-first', '--http', '0']);
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-probe-formats-'));
    const formats = ['stylish', 'json', 'sarif', 'github', 'junit', 'markdown'];
    const run = await runCliAsync([
      'probe',
      '--url',
      `http://127.0.0.1:${server.port}/mcp`,
      '--grace',
      '300',
      ...formats.flatMap((format) => ['--format', format, '--output', join(dir, format)]),
    ]);
    expect(run.status, run.stderr).toBe(0);
    for (const format of formats) {
      const text = readFileSync(join(dir, format), 'utf8');
      expect(text, format).toMatch(/slow_report/);
      expect(text, format).toMatch(/read-only by its annotations/);
      // A passing run's JUnit has no failure: the plan is a note, not a failed test.
      if (format === 'junit') expect(text).toMatch(/<testsuites name="mcprely probe" tests="\d+" failures="0" errors="0"/);
    }
  });
});

describe('init: scaffolding from a live server', () => {
  it('init writes a manifest from tools/list that lint then reports, hints marked unverified', () => {
    const run = runCli(['init', '--from-stdio', `node ${SERVERS}/sdk-v1-server.mjs stdio`]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        '- name: charge\\n {4}method: tools\\/call\\n {4}description: "Charges an account once per idempotency key"\\n' +
          ' {4}sideEffect: idempotent # unverified: inferred from idempotentHint: true',
      ),
    );
    const file = join(mkdtempSync(join(tmpdir(), 'mcprely-init-')), 'manifest.yaml');
    writeFileSync(file, run.stdout);
    const lint = runCli(['lint', file, '--format', 'json']);
    expect(lint.status).toBe(1);
    const rules = new Set((JSON.parse(lint.stdout).files[0].findings as { ruleId: string }[]).map((finding) => finding.ruleId));
    for (const rule of ['unverified-fields', 'deadline-max-required', 'deadline-idle-required']) expect(rules).toContain(rule);
  });

  it('init against a program that is not an MCP server exits 2 with the reason', () => {
    const run = runCli(['init', '--from-stdio', 'definitely-not-a-program-mcprely']);
    expect(run.status).toBe(2);
    expect(run.stderr + run.stdout).toMatch(/was not found/);
    expect(showsStackTrace(run.stderr + run.stdout)).toBe(false);
  });
});
