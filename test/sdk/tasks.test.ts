import { readFileSync } from 'node:fs';
import type { TasksObservation } from '../../src/live/probe-observations.js';
import { afterAll, describe, expect, it } from 'vitest';
import { taskClaims } from '../../src/live/task-claims.js';
import type { Finding } from '../../src/findings/finding.js';
import { runCliAsync } from '../helpers/run-cli.js';
import { check, EVERYTHING, freePort, HOSTILE, type ProbeRun, probe, SERVERS, startHttp, stopServers } from '../probe/probe-harness.js';

afterAll(stopServers);

const TASK_SERVER = `${SERVERS}/task-server.mjs`;
const QUICK = ['--max-time', '30000', '--grace', '300'];
const RESEARCH = ['--operation', 'simulate-research-query', '--allow-mutations', '--arguments', '{"topic":"tasks"}'];

interface TasksCheck {
  status: string;
  summary: string;
  observed?: Record<string, unknown>;
}
const tasksOf = (run: ProbeRun) => check(run.report, 'tasks') as unknown as TasksCheck;

async function probeTaskServer(defect: string, transport: 'stdio' | 'http', revision: string): Promise<ProbeRun> {
  const ask = ['--spec-version', revision, ...QUICK];
  if (transport === 'stdio') return probe(['--stdio', `node ${TASK_SERVER} ${defect} --revision ${revision}`, ...ask]);
  const server = await startHttp([TASK_SERVER, defect, '--http', '0', '--revision', revision]);
  try {
    return await probe(['--url', `http://127.0.0.1:${server.port}/mcp`, ...ask]);
  } finally {
    server.stop();
  }
}

interface Case {
  readonly defect: string;
  readonly on: readonly ['stdio' | 'http', string];
  readonly status: 'pass' | 'fail' | 'inconclusive';
  readonly summary: RegExp;
  readonly observed?: Record<string, unknown>;
}

/** Each judgement of the tasks check, a passing and a failing case, per transport and revision where it applies. */
const CASES: Readonly<Record<string, Case>> = {
  // (a) created, polled to a terminal status, the result fetched; progress on the task's token.
  'a task runs to completed and its result is fetched (2025-11-25, stdio)': {
    defect: 'none',
    on: ['stdio', '2025-11-25'],
    status: 'pass',
    summary: /ended completed \d+ ms after the request/,
    observed: { created: true, terminal: 'completed', resultRetrieved: true, cancelStatus: 'cancelled', disconnect: 'not-observable' },
  },
  'progress after the task completed fails (2025-11-25)': {
    defect: 'progress-after-terminal',
    on: ['stdio', '2025-11-25'],
    status: 'fail',
    summary: /1 progress notification for request \d+ after task task-1 was completed .*progress stops when the task is terminal/,
  },
  // (b) tasks/cancel, judged per revision.
  'cancelled stays cancelled (2025-11-25)': {
    defect: 'none',
    on: ['stdio', '2025-11-25'],
    status: 'pass',
    summary: /tasks\/cancel answered cancelled \d+ ms after request \d+ and the task stayed cancelled/,
  },
  'a cancelled task that ends completed fails (2025-11-25)': {
    defect: 'completes-after-cancel',
    on: ['stdio', '2025-11-25'],
    status: 'fail',
    summary: /task task-2 went from cancelled to completed .*terminal statuses never change/,
  },
  'tasks/cancel that answers working fails (2025-11-25)': {
    defect: 'cancel-not-terminal',
    on: ['stdio', '2025-11-25'],
    status: 'fail',
    summary: /tasks\/cancel of task task-2 answered status working .*moves the task to cancelled before it answers/,
    observed: { cancelStatus: 'working' },
  },
  'tasks/cancel of a terminal task accepted fails (2025-11-25)': {
    defect: 'cancel-terminal-accepted',
    on: ['stdio', '2025-11-25'],
    status: 'fail',
    summary: /cancelled \(terminal\) task task-2 was answered with a result, not -32602/,
  },
  'a server that honours only notifications/cancelled fails (2025-11-25)': {
    defect: 'cancel-via-notification-only',
    on: ['stdio', '2025-11-25'],
    status: 'fail',
    summary: /tasks\/cancel of the working task task-2 was refused with error -32601/,
  },
  'acknowledged, then cancelled (2026-07-28)': {
    defect: 'none',
    on: ['stdio', '2026-07-28'],
    status: 'pass',
    summary: /tasks\/cancel was acknowledged \d+ ms after request \d+ and the task then reached cancelled/,
    observed: { created: true, terminal: 'completed', resultRetrieved: true, cancelStatus: 'acknowledged', afterCancel: 'cancelled' },
  },
  'acknowledged, then completed: eventually consistent (2026-07-28)': {
    defect: 'completes-after-cancel',
    on: ['stdio', '2026-07-28'],
    status: 'pass',
    summary: /acknowledged .* the task then reached completed \(eventually consistent\)/,
    observed: { cancelStatus: 'acknowledged', afterCancel: 'completed' },
  },
  'a server that honours only notifications/cancelled fails (2026-07-28)': {
    defect: 'cancel-via-notification-only',
    on: ['stdio', '2026-07-28'],
    status: 'fail',
    summary: /tasks\/cancel of the working task task-2 was refused with error -32601/,
  },
  // (c) a fresh connection finds the first task.
  'a new session finds the task (2025-11-25, HTTP)': {
    defect: 'none',
    on: ['http', '2025-11-25'],
    status: 'pass',
    summary: /tasks\/get from a new session \(its own initialize\) found task task-1/,
    observed: { survivesDisconnect: true },
  },
  'a new session that does not find it is allowed, and observed (2025-11-25, HTTP)': {
    defect: 'forgets-on-disconnect',
    on: ['http', '2025-11-25'],
    status: 'pass',
    summary: /did not find task task-1: .*-32602.*allowed on this revision/,
    observed: { survivesDisconnect: false },
  },
  'a fresh client finds the task (2026-07-28, HTTP)': {
    defect: 'none',
    on: ['http', '2026-07-28'],
    status: 'pass',
    summary: /tasks\/get from a fresh client \(its own server\/discover\) found task task-1/,
    observed: { survivesDisconnect: true, cancelStatus: 'acknowledged' },
  },
  // A tool that stalled as a plain call (the progress check waited its limit): its task is polled a few times, not again.
  'the task of a tool that never answered plainly is not waited for again (2026-07-28)': {
    defect: 'never-ends',
    on: ['stdio', '2026-07-28'],
    status: 'inconclusive',
    summary: new RegExp(
      '^task task-1 of slow_task was still working 2000 ms after the request: not waited for again, ' +
        'since slow_task never answered within 12000 ms as a plain call in progress$',
    ),
  },
  'a fresh client that does not find it fails (2026-07-28, HTTP)': {
    defect: 'forgets-on-disconnect',
    on: ['http', '2026-07-28'],
    status: 'fail',
    summary: /fresh client .* did not find task task-1: .*did not outlive the connection that created it/,
    observed: { survivesDisconnect: false },
  },
};

describe.concurrent('the tasks check against the hand-written task server', () => {
  it.each(Object.entries(CASES))(
    '%s',
    async (_name, { defect, on, status, summary, observed }) => {
      const run = await probeTaskServer(defect, ...on);
      const tasks = tasksOf(run);
      expect(tasks.status, tasks.summary).toBe(status);
      expect(tasks.summary).toMatch(summary);
      if (observed !== undefined) expect(tasks.observed).toMatchObject(observed);
      // Never notifications/cancelled for a task, and no plain call of a tool that requires tasks.
      const sent = check(run.report, 'tasks')
        .transcript.filter((entry) => entry.direction === '→')
        .map((entry) => entry.text);
      expect(sent.some((text) => text.includes('notifications/cancelled'))).toBe(false);
      if (on[1] === '2025-11-25')
        for (const id of ['progress', 'cancel-before-completion', 'client-timeouts'])
          expect(check(run.report, id).summary, id).toMatch(/requires task augmentation .* the tasks check plays it/);
    },
    60_000,
  );

  it('a server without task support: inconclusive, saying why', async () => {
    const run = await probe(['--stdio', `node ${HOSTILE} none --revision 2025-11-25`, ...QUICK]);
    const tasks = tasksOf(run);
    expect(tasks.status).toBe('inconclusive');
    expect(tasks.summary).toMatch(/no tool to run as a task: no listed tool says execution\.taskSupport: required or optional/);
  }, 60_000);
});

describe('the tasks check against server-everything (simulate-research-query requires tasks)', () => {
  it('over stdio: created, completed, cancelled; the disconnect is not observable', async () => {
    const run = await probe(['--stdio', `node ${EVERYTHING} stdio`, ...RESEARCH, ...QUICK]);
    const tasks = tasksOf(run);
    expect(tasks.status, tasks.summary).toBe('pass');
    expect(tasks.observed).toMatchObject({
      created: true,
      terminal: 'completed',
      resultRetrieved: true,
      cancelStatus: 'cancelled',
      afterCancel: 'cancelled',
      cancelTerminalCode: -32602,
      disconnect: 'not-observable',
    });
    expect(check(run.report, 'progress').status).toBe('inconclusive');
    expect(check(run.report, 'progress').summary).toMatch(/simulate-research-query requires task augmentation/);
  }, 60_000);

  it('over Streamable HTTP: a new session does not find the task (its store is per session), which 2025-11-25 allows', async () => {
    const port = await freePort();
    const server = await startHttp([EVERYTHING, 'streamableHttp'], { PORT: String(port) });
    try {
      const run = await probe(['--url', `http://127.0.0.1:${port}/mcp`, ...RESEARCH, ...QUICK]);
      const tasks = tasksOf(run);
      expect(tasks.status, tasks.summary).toBe('pass');
      expect(tasks.observed).toMatchObject({ created: true, terminal: 'completed', cancelStatus: 'cancelled', survivesDisconnect: false });
      expect(tasks.summary).toMatch(/new session .* did not find task .*Task not found/);
    } finally {
      server.stop();
    }
  }, 60_000);
});

describe('task claims against the wire', () => {
  const claims = `${SERVERS}/task-claims.yaml`;
  const lineOf = (text: string, needle: string) => text.split('\n').findIndex((line) => line.includes(needle)) + 1;

  it.concurrent.each([
    ['none', []],
    ['forgets-on-disconnect', ['task.survivesDisconnect', 'task.store']],
    ['completes-after-cancel', ['task.cancel']],
  ] as const)(
    'drift against the task server (%s, 2026-07-28, HTTP): one finding per contradicted claim',
    async (defect, contradicted) => {
      const server = await startHttp([TASK_SERVER, defect, '--http', '0', '--revision', '2026-07-28']);
      try {
        const run = await runCliAsync(['drift', claims, '--url', `http://127.0.0.1:${server.port}/mcp`, '-f', 'json', ...QUICK]);
        expect(run.status, run.stderr).toBe(contradicted.length === 0 ? 0 : 1);
        const findings = (JSON.parse(run.stdout) as { files: { findings: Finding[] }[] }).files[0]!.findings;
        expect(findings.map((finding) => finding.ruleId)).toEqual(contradicted.map(() => 'drift-task'));
        const line = lineOf(readFileSync(claims, 'utf8'), 'task: { used: true');
        for (const [index, field] of contradicted.entries()) {
          expect(findings[index]!.message).toContain(`the manifest says ${field}:`);
          expect(findings[index]!.range!.start.line).toBe(line);
          expect(findings[index]!.path).toBe(`/operations/0/${field.replace('.', '/')}`);
        }
      } finally {
        server.stop();
      }
    },
    60_000,
  );

  it('each claim judged from the observed facts', () => {
    const judged = (observed: TasksObservation, status = 'pass') =>
      Object.fromEntries(
        taskClaims(
          { used: true, cancel: 'immediate-terminal', survivesDisconnect: true, store: 'durable' },
          { id: 'tasks', status: status as 'pass', summary: 's', observed },
        ).map((claim) => [claim.field, claim.status]),
      );
    expect(judged({ cancelStatus: 'cancelled', afterCancel: 'cancelled', survivesDisconnect: true })).toEqual({
      'task.cancel': 'seen',
      'task.survivesDisconnect': 'seen',
      'task.store': 'seen',
    });
    expect(
      judged({ cancelStatus: 'acknowledged', firstAfterCancel: 'working', afterCancel: 'cancelled', survivesDisconnect: false }),
    ).toEqual({
      'task.cancel': 'contradicted',
      'task.survivesDisconnect': 'contradicted',
      'task.store': 'contradicted',
    });
    expect(judged({ cancelStatus: 'cancelled', afterCancel: 'cancelled', disconnect: 'not-observable' })).toMatchObject({
      'task.survivesDisconnect': 'not-observable',
      'task.store': 'not-observable',
    });
    expect(judged({}, 'inconclusive')).toEqual({
      'task.cancel': 'inconclusive',
      'task.survivesDisconnect': 'inconclusive',
      'task.store': 'inconclusive',
    });
  });
});
