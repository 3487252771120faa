import { CREATION_MESSAGES } from './task-creation-messages.js';
import { describe, expect, it } from 'vitest';
import { tasks } from '../../../src/probe/check-declarations/tasks.js';
import { judgeTaskCreation, type TaskCreationRun } from '../../../src/probe/checks/task-creation.js';
import { errorAt, resultAt } from './judgement-tester.js';

const tool = { name: 'export', taskSupport: 'optional' };
const asked = (more: Partial<TaskCreationRun>, serverDirected = false): TaskCreationRun => ({
  tool,
  serverDirected,
  how: serverDirected ? 'declaring the extension' : 'with params.task { ttl: 60000 }',
  call: { id: 4, sentAt: 0 },
  ...more,
});

/** Recorded answers to a task-augmented tools/call, and what the tasks check makes of each: the server's fault, or no one's. */
const TABLE: readonly {
  name: string;
  run: TaskCreationRun;
  kind: 'task' | 'problem' | 'unplayed';
  messageId?: string;
  data?: Record<string, string | number>;
}[] = [
  {
    name: 'a CreateTaskResult with its poll interval',
    run: asked({ response: resultAt(30, { task: { taskId: 't1', status: 'working', pollInterval: 100 } }, 4) }),
    kind: 'task',
  },
  {
    name: 'server-directed: a result of resultType task',
    run: asked({ response: resultAt(30, { resultType: 'task', taskId: 't2', status: 'working' }, 4) }, true),
    kind: 'task',
  },
  {
    name: 'no answer in the time the request is given',
    run: asked({ unanswered: { waitedMs: 10_000, budgetCut: false } }),
    kind: 'problem',
    messageId: 'creationUnanswered',
    data: { request: 4, how: 'with params.task { ttl: 60000 }', why: 'no CreateTaskResult within 10000 ms' },
  },
  {
    name: "no answer before the probe's budget ran out",
    run: asked({ unanswered: { waitedMs: 800, budgetCut: true } }),
    kind: 'unplayed',
    messageId: 'budgetSpent',
    data: { waitMs: 800 },
  },
  {
    name: 'server-directed: refused for a capability the request declared',
    run: asked({ response: errorAt(20, -32021, 'missing capability', 4) }, true),
    kind: 'problem',
    messageId: 'capabilityRefused',
    data: { how: 'declaring the extension', atMs: 20, request: 4 },
  },
  {
    name: 'the tool refused its arguments',
    run: asked({ response: errorAt(20, -32602, 'bad arguments', 4) }),
    kind: 'unplayed',
    messageId: 'toolRefused',
  },
  {
    name: 'a tool error instead of a task',
    run: asked({ response: resultAt(20, { isError: true, content: [] }, 4) }),
    kind: 'unplayed',
    messageId: 'toolFailedNotTask',
  },
  {
    name: 'server-directed: the server chose an ordinary result',
    run: asked({ response: resultAt(20, { content: [] }, 4) }, true),
    kind: 'unplayed',
    messageId: 'ordinaryResultChosen',
    data: { tool: 'export', atMs: 20, request: 4, resultType: 'null' },
  },
  {
    name: 'an ordinary result where the client asked for a task',
    run: asked({ response: resultAt(20, { content: [] }, 4) }),
    kind: 'problem',
    messageId: 'ordinaryResult',
    data: { tool: 'export', atMs: 20, request: 4, taskSupport: 'optional' },
  },
  {
    name: 'a task with an unknown status',
    run: asked({ response: resultAt(20, { task: { taskId: 't3', status: 'running' } }, 4) }),
    kind: 'problem',
    messageId: 'malformedTask',
    data: { atMs: 20, request: 4, seed: '{"taskId":"t3","status":"running"}' },
  },
];

describe("the tasks check's judgement of a recorded task-augmented tools/call", () => {
  it.each(TABLE.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    const judged = judgeTaskCreation(row.run);
    expect(Object.keys(judged)).toContain(row.kind);
    if (row.kind === 'task') return;
    const message = 'problem' in judged ? judged.problem : 'unplayed' in judged ? judged.unplayed : undefined;
    expect(message?.messageId).toBe(row.messageId);
    if (row.data !== undefined) expect(message?.data).toEqual(row.data);
  });

  it('exercises every creation message the tasks check declares', () => {
    const exercised = new Set(TABLE.map((row) => row.messageId));
    expect(CREATION_MESSAGES.filter((id) => !exercised.has(id))).toEqual([]);
    expect(CREATION_MESSAGES.filter((id) => !(id in tasks.messages))).toEqual([]);
  });
});
