import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stylishFindings } from '../helpers/stylish.js';
import { runCli, showsStackTrace } from '../helpers/run-cli.js';

/** The transcript block of one fixture in verify's output. */
function block(output: string, id: string): string {
  const start = output.search(new RegExp(`^(PASS|FAIL)  ${id.replace(/[/]/g, '\\/')}  \\[`, 'm'));
  expect(start, `${id} not in the output`).toBeGreaterThanOrEqual(0);
  const end = output.indexOf('\n\n', start);
  return output.slice(start, end);
}

describe('mcprely verify on the examples', () => {
  it('the complete example passes every fixture', () => {
    const run = runCli(['verify', 'fixtures/examples/billing.yaml']);
    const failed = run.stdout.split('\n\n').filter((part) => /^FAIL {2}/m.test(part));
    expect(run.status, `${failed.join('\n\n').slice(0, 4000)}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/^Summary: 58 fixtures run, 58 passed, 0 failed$/m);
    expect(run.stderr).toBe('');
  });

  it.each([
    [
      'no maximum timeout',
      'no-max-timeout.yaml',
      'export_report/progress-resets-idle-maximum-fires',
      /FAIL {2}terminal-state \(request=r1, state=cancelled, reason=maximum timeout\): request r1 is still in progress at 200000 ms: it never ended/,
      /t=200000ms {2}server → client {2}\{"jsonrpc":"2\.0","method":"notifications\/progress","params":\{"progressToken":"p1","progress":40\}\}/,
    ],
    [
      'an unbounded buffer',
      'unbounded-progress-buffer.yaml',
      'sync_catalog/slow-consumer-overflows-buffer',
      /FAIL {2}buffer-bounded: no capacity is declared: the queue grew to 258 events/,
      /no bound: 256 events queued for a consumer that reads nothing/,
    ],
    [
      'a process-local ledger with 4 replicas',
      'process-local-ledger.yaml',
      'capture_payment/two-connections-race-one-key',
      /FAIL {2}executions \(count=1\): the business effect ran 2 times/,
      /connection A: the ledger file of its own replica \(process-local with 4 replicas\)/,
    ],
    [
      'HTTP cancellation by POST on 2026-07-28',
      'http-cancel-by-post.yaml',
      'build_site/http-cancel-before-completion',
      /FAIL {2}response \(request=r1, present=false\): 1 response reached the client/,
      /cancellation ignored: on 2026-07-28 an HTTP request is cancelled by closing its response stream, not by a notification/,
    ],
    [
      'Last-Event-ID on 2026-07-28',
      'last-event-id.yaml',
      'watch_orders/stream-drop-reconnect-refetch',
      /FAIL {2}no-last-event-id \(request=r1\): the client tried to resume with Last-Event-ID/,
      /Last-Event-ID ignored: 2026-07-28 has no resumable streams/,
    ],
    [
      'a task acknowledgement taken as final',
      'task-ack-as-final.yaml',
      'migrate_tenant/task-cancel-ack-then-worker-checkpoint',
      /FAIL {2}client-sees-terminal \(task=t2, status=completed\): the client assumed cancelled; the task is completed/,
      /treats the acknowledgement as final: assumes t2 is cancelled and stops polling/,
    ],
    [
      'progress that resets the maximum',
      'progress-resets-max.yaml',
      'train_model/progress-resets-idle-maximum-fires',
      /FAIL {2}terminal-state .*it never ended/,
      /notifications\/progress/,
    ],
    [
      'a mutation retried on timeout without a key',
      'retry-mutation-without-key.yaml',
      'send_invoice/lost-response-automatic-retry',
      /FAIL {2}executions \(count=1\): the business effect ran 2 times/,
      /without an idempotency key nothing identifies the lost attempt: the request is re-sent/,
    ],
    [
      'SSE without X-Accel-Buffering: no',
      'proxy-buffers-sse.yaml',
      'search_documents/proxy-buffering-sse',
      /FAIL {2}progress-delivered \(request=r1\): 3 of 3 progress notifications did not reach the client when sent/,
      /the SSE response lacks X-Accel-Buffering: no: the proxy buffers the stream until the response ends/,
    ],
  ])('%s: the fixture fails, and its transcript shows why', (_, file, id, failure, evidence) => {
    const run = runCli(['verify', `fixtures/examples/flawed/${file}`]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^  FAIL  ${id.replace(/[/]/g, '\\/')}  `, 'm'));
    const transcript = block(run.stdout, id);
    expect(transcript.startsWith('FAIL')).toBe(true);
    expect(transcript).toMatch(failure);
    expect(transcript).toMatch(evidence);
  });
});

describe('mcprely verify on fixture files', () => {
  const generate = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-fixtures-'));
    const run = runCli(['fixtures', 'fixtures/examples/billing.yaml', '-o', dir]);
    expect(run.status).toBe(0);
    return dir;
  };

  it('writes fixture files that name their manifest, and runs them', () => {
    const dir = generate();
    const file = join(dir, 'charge_account', 'close-reopen-replay.json');
    const fixture = JSON.parse(readFileSync(file, 'utf8'));
    expect(fixture).toMatchObject({ mcprelyFixture: 1, id: 'charge_account/close-reopen-replay', operation: 'charge_account' });
    const run = runCli(['verify', file, join(dir, 'charge_account', 'one-key-identical-arguments.json')]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Summary: 2 fixtures run, 2 passed, 0 failed/);
  });

  it('reports each unusable fixture with its place and exit 2, and still runs the others', () => {
    const dir = generate();
    const good = join(dir, 'charge_account', 'stdio-cancel-before-completion.json');
    const base = JSON.parse(readFileSync(good, 'utf8'));
    // biome-ignore lint/suspicious/noExplicitAny: a fixture document edited as raw JSON
    const write = (name: string, edit: (fixture: any) => void) => {
      const copy = JSON.parse(JSON.stringify(base));
      edit(copy);
      const file = join(dir, 'charge_account', name);
      writeFileSync(file, JSON.stringify(copy, null, 2));
      return file;
    };
    const cases: [string, RegExp][] = [
      [
        write('unknown-step.json', (fixture) => (fixture.steps[2].do = 'cancle')),
        /unknown-step\.json:\d+:\d+: error: steps\[2\]\.do is "cancle", which is not one of .* \(did you mean "cancel"\?\)/,
      ],
      [
        write('unknown-operation.json', (fixture) => (fixture.operation = 'charge_acount')),
        /unknown-operation\.json:\d+:\d+: error: The fixture names the operation charge_acount, which .*billing\.yaml does not have/,
      ],
      [
        write('contradiction.json', (fixture) => (fixture.parameters.maxTimeoutMs = 99)),
        /contradiction\.json:\d+:\d+: error: parameters\.maxTimeoutMs is 99 but the manifest gives 60000/,
      ],
      [
        write('no-expectations.json', (fixture) => delete fixture.expect),
        /no-expectations\.json:1:1: error: The fixture is missing the required field "expect"/,
      ],
      [
        write('unknown-request.json', (fixture) => (fixture.steps[1].request = 'r9')),
        /unknown-request\.json:\d+:\d+: error: request r9 was not started by an earlier step/,
      ],
      [
        write('backwards.json', (fixture) => (fixture.steps[3].at = 50)),
        /backwards\.json:\d+:\d+: error: step 4 is at 50 ms, before the step before it \(200 ms\)/,
      ],
    ];
    const run = runCli(['verify', ...cases.map(([file]) => file), good]);
    expect(run.status).toBe(2);
    expect(showsStackTrace(run.stderr)).toBe(false);
    // The grouped stylish report, one `file:line:column: severity: message [rule]` line per finding.
    const reported = stylishFindings(run.stderr).map(
      (finding) => `${finding.file}:${finding.line}:${finding.column}: ${finding.severity}: ${finding.message} [${finding.ruleId}]`,
    );
    for (const [, message] of cases) expect(reported.join('\n')).toMatch(message);
    // Every problem with a fixture file is reported under the fixture's own rule id, never as a manifest's.
    expect(reported.length).toBe(cases.length);
    for (const line of reported) expect(line).toMatch(/\[fixture-file\]$/);
    expect(run.stdout).toMatch(/Summary: 1 fixture run, 1 passed, 0 failed; 6 files could not be used/);
  });
});
