import { tasks } from '../check-declarations/tasks.js';
import { type CheckMessage, messagesOf } from '../check-message.js';
import { type CheckOutcome, judged } from '../probe-types.js';
import type { TasksObservation } from '../../live/probe-observations.js';
import type { Stall } from '../stall.js';

const message = messagesOf(tasks);

/** What the plan had before sending anything: the tool to run as a task (or why none), and whether the server declares tasks. */
export interface TaskSetup<Tool extends { readonly name: string; readonly taskSupport?: string }> {
  readonly tool?: Tool;
  readonly noTaskTool?: string;
  readonly declared: { readonly ok: boolean; readonly why: string };
}

/** Why the check sends no task-augmented request (inconclusive), or the tool it runs as a task. Pure. */
export function judgeTaskSetup<Tool extends { readonly name: string; readonly taskSupport?: string }>(
  setup: TaskSetup<Tool>,
): { readonly verdict: CheckOutcome<never> } | { readonly tool: Tool } {
  const { tool, declared } = setup;
  const undeclared = declared.why;
  if (tool === undefined) {
    const why = setup.noTaskTool ?? 'none was chosen';
    return {
      verdict: judged('inconclusive', declared.ok ? message('noTaskTool', { why }) : message('noTaskToolUndeclared', { why, undeclared })),
    };
  }
  if (declared.ok) return { tool };
  const required = tool.taskSupport === 'required';
  const verdict = required ? message('notDeclaredRequired', { undeclared, tool: tool.name }) : message('notDeclared', { undeclared });
  return { verdict: judged('inconclusive', verdict) };
}

/**
 * The first task, still not terminal at the probe's limit for one run: its end was not seen; or, its tool having stalled
 * as a plain call in an earlier check, it was polled a few times only and not waited for again. Pure.
 */
export function judgeUnfinished(
  unfinished: {
    readonly taskId: string;
    readonly tool: string;
    readonly status?: string;
    readonly limitMs: number;
    readonly stall?: Pick<Stall, 'limitMs' | 'check'>;
  },
  details: readonly string[],
  observed: TasksObservation,
): CheckOutcome<TasksObservation> {
  const { taskId, tool, limitMs, stall } = unfinished;
  const status = unfinished.status ?? 'unread';
  return judged(
    'inconclusive',
    stall === undefined
      ? message('stillRunning', { taskId, tool, status, limitMs })
      : message('notWaitedAgain', { taskId, tool, status, limitMs, stallMs: stall.limitMs, check: stall.check }),
    details,
    undefined,
    observed,
  );
}

/** What every step of the check concluded, in the order they ran. */
export interface TaskSteps {
  readonly taskId: string;
  /** The first task's terminal status, how long after the request it was read, and how many tasks/get it took. */
  readonly terminal?: string;
  readonly runMs?: number;
  readonly polls: number;
  /** The steps' problems, the first task's (polling, result, progress) then the cancellation's then the disconnect's. */
  readonly problems: readonly CheckMessage[];
  readonly cancel: { readonly summary?: CheckMessage; readonly unplayed?: CheckMessage };
  readonly disconnect: string;
  readonly details: readonly string[];
  readonly observed: TasksObservation;
}

/** The check's verdict from its steps: the first problem fails it; a cancellation that showed nothing leaves it inconclusive. Pure. */
export function concludeTasks(steps: TaskSteps): CheckOutcome<TasksObservation> {
  const { problems, details, observed, taskId } = steps;
  const terminal = String(steps.terminal);
  if (problems.length > 0)
    return judged('fail', problems[0]!, [...problems.slice(1).map((problem) => problem.text), ...details], undefined, observed);
  if (steps.cancel.unplayed !== undefined)
    return judged(
      'inconclusive',
      message('cancelUnplayed', { taskId, terminal, unplayed: steps.cancel.unplayed.text }),
      details,
      undefined,
      observed,
    );
  const summary = { taskId, terminal, runMs: String(steps.runMs), polls: steps.polls };
  return judged(
    'pass',
    message('passed', { ...summary, cancel: steps.cancel.summary?.text ?? '', disconnect: steps.disconnect }),
    details,
    undefined,
    observed,
  );
}
