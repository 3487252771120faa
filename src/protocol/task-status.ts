/** The statuses a task can report (schema.ts: TaskStatus), the non-terminal ones first. */
export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The statuses a task never leaves. */
export const TERMINAL_TASK_STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

export function isTaskStatus(value: unknown): value is TaskStatus {
  return (TASK_STATUSES as readonly unknown[]).includes(value);
}
