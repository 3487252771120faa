import { describe, expect, it } from 'vitest';
import { isTaskStatus, TASK_STATUSES, TERMINAL_TASK_STATUSES } from '../../src/protocol/task-status.js';

describe('task statuses', () => {
  it('a task ends in completed, failed or cancelled; working and input_required go on', () => {
    expect(TASK_STATUSES.filter((status) => TERMINAL_TASK_STATUSES.has(status))).toEqual(['completed', 'failed', 'cancelled']);
    expect([...TERMINAL_TASK_STATUSES].every(isTaskStatus)).toBe(true);
  });

  it('a status outside the schema is none', () => {
    expect(isTaskStatus('input_required')).toBe(true);
    expect(isTaskStatus('done')).toBe(false);
    expect(isTaskStatus(undefined)).toBe(false);
  });
});
