import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DurableTaskService } from '../../src/reference/durable-task-service.js';
import { InvalidArgumentError, ProtocolStateError, TaskError } from '../../src/reference/errors.js';

describe('DurableTaskService on 2026-07-28: tasks/cancel is an acknowledgement', () => {
  it('acknowledges, stays working until the worker checkpoint, then cancelled', () => {
    const tasks = DurableTaskService.open({ specVersion: '2026-07-28' });
    expect(tasks.create('t1')).toEqual({ id: 't1', status: 'working', cancelRequested: false });
    expect(tasks.cancel('t1')).toEqual({ acknowledged: true });
    expect(tasks.get('t1')).toEqual({ id: 't1', status: 'working', cancelRequested: true });
    expect(tasks.workerCheckpoint('t1')).toBe('cancelled');
    expect(tasks.finish('t1')).toBe('cancelled');
    expect(tasks.get('t1')).toEqual({ id: 't1', status: 'cancelled', cancelRequested: false });
  });

  it('a task that completes before the checkpoint ends completed: the acknowledgement was not a status', () => {
    const tasks = DurableTaskService.open({ specVersion: '2026-07-28' });
    tasks.create('t1');
    tasks.cancel('t1');
    expect(tasks.finish('t1')).toBe('completed');
    expect(tasks.workerCheckpoint('t1')).toBe('completed');
    expect(tasks.cancel('t1')).toEqual({ acknowledged: true });
    expect(tasks.get('t1')?.status).toBe('completed');
  });

  it('keeps task state after the connection closes and the service reopens', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mcprely-tasks-')), 'tasks.sqlite');
    const tasks = DurableTaskService.open({ specVersion: '2026-07-28', path });
    tasks.create('long');
    tasks.cancel('long');
    tasks.close();
    const reopened = DurableTaskService.open({ specVersion: '2026-07-28', path });
    expect(reopened.get('long')).toEqual({ id: 'long', status: 'working', cancelRequested: true });
    expect(reopened.workerCheckpoint('long')).toBe('cancelled');
    reopened.close();
  });
});

describe('DurableTaskService on 2025-11-25: cancelled before answering', () => {
  it('moves the task to cancelled before the answer, and refuses to cancel a terminal task with -32602', () => {
    const tasks = DurableTaskService.open({ specVersion: '2025-11-25' });
    tasks.create('t1');
    expect(tasks.cancel('t1')).toEqual({ task: { id: 't1', status: 'cancelled', cancelRequested: false } });
    expect(tasks.finish('t1')).toBe('cancelled');
    let thrown: unknown;
    try {
      tasks.cancel('t1');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TaskError);
    expect((thrown as TaskError).jsonRpcCode).toBe(-32602);
    expect(() => tasks.cancel('missing')).toThrow(TaskError);
  });

  it('failed and completed are terminal too', () => {
    const tasks = DurableTaskService.open({ specVersion: '2025-11-25' });
    tasks.create('a');
    expect(tasks.fail('a')).toBe('failed');
    expect(tasks.finish('a')).toBe('failed');
  });
});

describe('DurableTaskService bad input', () => {
  it('rejects empty ids, duplicates, unknown tasks and revisions by name', () => {
    const tasks = DurableTaskService.open({ specVersion: '2026-07-28' });
    expect(() => tasks.create('')).toThrow(InvalidArgumentError);
    tasks.create('x');
    expect(() => tasks.create('x')).toThrow(ProtocolStateError);
    expect(() => tasks.workerCheckpoint('nope')).toThrow(ProtocolStateError);
    expect(() => DurableTaskService.open({ specVersion: 'draft' as '2026-07-28' })).toThrow(
      expect.objectContaining({ argument: 'specVersion' }),
    );
  });
});
