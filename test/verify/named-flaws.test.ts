import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { namedFlawsSuite, opPath, type NamedFlaw } from '../helpers/named-flaws.js';

// Each flaw issue 25 found passing verify, with the fixture that must now fail for it (and the rule lint reports).
const FLAWS: readonly NamedFlaw[] = [
  {
    flaw: 'a task store in memory',
    path: [...opPath('reindex_ledger'), 'task', 'store'],
    value: 'in-memory',
    fails: 'reindex_ledger/task-drop-then-poll',
    rule: 'task-durable-state',
  },
  {
    flaw: 'task state that does not survive a disconnect',
    path: [...opPath('reindex_ledger'), 'task', 'survivesDisconnect'],
    value: false,
    fails: 'reindex_ledger/task-drop-then-poll',
    rule: 'task-durable-state',
  },
  {
    flaw: 'finals not preserved',
    path: ['defaults', 'flowControl', 'preserveFinal'],
    value: false,
    fails: 'charge_account/slow-consumer-overflows-buffer',
    rule: 'flow-preserve-final',
  },
  {
    flaw: 'overflow dropping the newest',
    path: ['defaults', 'flowControl', 'progressBuffer', 'overflow'],
    value: 'drop-newest',
    fails: 'charge_account/slow-consumer-overflows-buffer',
    rule: 'flow-drop-oldest',
  },
  {
    flaw: 'keep-alive counted as activity',
    path: ['defaults', 'timeouts', 'keepaliveCountsAsActivity'],
    value: true,
    fails: 'watch_accounts/idle-timeout-fires-on-silence',
    rule: 'deadline-keepalive-not-activity',
  },
  {
    flaw: 'progress after completion',
    path: [...opPath('charge_account'), 'progress', 'stopsOnCompletion'],
    value: false,
    fails: 'charge_account/stdio-complete-before-late-cancel',
    rule: 'progress-stops',
  },
  {
    flaw: 'a handler that never checks',
    path: [...opPath('charge_account'), 'cancellation', 'handler'],
    value: 'never-checks',
    fails: 'charge_account/stdio-cancel-before-completion',
    rule: 'cancel-handler-checks',
  },
  {
    flaw: 'a late response delivered',
    path: ['defaults', 'timeouts', 'lateResponse'],
    value: 'deliver',
    fails: 'get_balance/timeout-then-late-response',
    rule: 'deadline-ignore-late-response',
  },
  {
    flaw: 'a response after cancellation',
    path: ['defaults', 'cancellation', 'suppressResponseAfterCancel'],
    value: false,
    fails: 'charge_account/stdio-cancel-before-completion',
    rule: 'cancel-suppress-response',
  },
  {
    flaw: 'a retry that reuses its request id',
    path: [...opPath('get_balance'), 'retry', 'newRequestId'],
    value: false,
    fails: 'get_balance/timeout-retry-new-request-id',
    rule: 'retry-new-request-id',
  },
  {
    flaw: 'a subscription re-issued with a tool name',
    path: [...opPath('watch_accounts'), 'recovery', 'reconnect', 'carriesToolName'],
    value: true,
    fails: 'watch_accounts/stream-drop-reconnect-refetch',
    rule: 'recovery-listen-restore',
  },
];

namedFlawsSuite('each flaw a reviewer found passing verify now fails a named fixture, and lint reports it', FLAWS);

describe('evidence of the complete example plays each method as it is', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcprely-evidence-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const transcripts = (operationName: string) => {
    const folder = join(dir, 'transcripts', operationName);
    return readdirSync(folder).map((file) => ({ file, text: readFileSync(join(folder, file), 'utf8') }));
  };

  it('writes the bundle', () => {
    expect(runCli(['evidence', 'fixtures/examples/billing.yaml', '-o', dir]).status).toBe(0);
  });

  it('a Task is never cancelled with notifications/cancelled, and its polls are tasks/get by id', () => {
    const task = transcripts('reindex_ledger');
    expect(task.length).toBeGreaterThan(0);
    for (const { file, text } of task) expect(text, file).not.toContain('notifications/cancelled');
    expect(task.some(({ text }) => text.includes('"method":"tasks/get","params":{"taskId":"t1"}'))).toBe(true);
    const review = readFileSync(join(dir, 'review.md'), 'utf8');
    const reindex = review.slice(review.indexOf('## reindex_ledger'), review.indexOf('## watch_accounts'));
    for (const row of reindex.matchAll(/^\| (tasks\/cancel then completion|disconnect then poll) \|.*$/gm)) expect(row[0]).toMatch(/✅/);
    expect(reindex).not.toMatch(/\| (cancel then complete|disconnect during progress) \|/);
  });

  it('a read carries its uri and gets no progress', () => {
    for (const { file, text } of transcripts('get_balance')) {
      expect(text, file).not.toContain('notifications/progress');
      expect(text, file).not.toContain('progressToken');
    }
    expect(transcripts('get_balance').some(({ text }) => text.includes('"uri":"ledger://accounts/account-7"'))).toBe(true);
  });

  it('a subscription gets no progress, and its re-issue carries no tool name', () => {
    const listen = transcripts('watch_accounts');
    for (const { file, text } of listen) expect(text, file).not.toContain('notifications/progress');
    const drop = listen.find(({ file }) => file.startsWith('stream-drop-reconnect-refetch'))!.text;
    const reissue = /POST (\{.*"id":"r1-retry".*\})/.exec(drop)![1]!;
    expect(JSON.parse(reissue).params).toEqual({ filter: { subscription: 'watch_accounts' } });
  });
});
