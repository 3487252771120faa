import { factsOf } from '../../spec/revision-facts.js';
import type { SpecVersion } from '../../spec/revisions.js';
import { type CheckOutcome, outcome, type ProbeContext } from '../probe-types.js';
import { objectAt } from './task-creation.js';

/** The extension that carries tasks where they are not in the core protocol. */
export const EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * The ordinary request checks (progress, cancellation, client timeouts) do not call a tool that requires task
 * augmentation: a plain tools/call of it is refused, which says nothing of its arguments or of the server. The
 * tasks check plays it.
 */
export function taskRequired(context: ProbeContext): CheckOutcome<never> | undefined {
  const tool = context.plan.longTool;
  if (tool?.taskSupport !== 'required') return undefined;
  return outcome(
    'inconclusive',
    `${tool.name} requires task augmentation (execution.taskSupport: required): a plain tools/call of it is refused, ` +
      'so this check does not call it; the tasks check plays it as a task',
  );
}

/** On a revision whose server decides which requests become tasks, whether this server declares that it makes them. */
export function serverDecidesTasks(revision: SpecVersion, capabilities: Record<string, unknown> | undefined): boolean {
  if (factsOf(revision)['task-augmentation'].value !== 'server-directed') return false;
  return objectAt(capabilities, ['extensions', EXTENSION]) !== undefined;
}

/** The probe's wire for tasks on this revision, from the table of facts. */
export interface TaskWire {
  readonly serverDirected: boolean;
  readonly tasksResult: boolean;
  readonly progressForTaskLifetime: boolean;
  readonly cancelIsTerminal: boolean;
  readonly terminalCancelRefused: boolean;
  readonly anyClientFindsIt: boolean;
  /** The client capabilities each task request declares (per-request, where the revision carries them so). */
  readonly capabilities: Record<string, unknown>;
}

export function wireOf(revision: SpecVersion): TaskWire {
  const facts = factsOf(revision);
  const serverDirected = facts['task-augmentation'].value === 'server-directed';
  return {
    serverDirected,
    tasksResult: facts['task-result'].value === 'tasks-result',
    progressForTaskLifetime: facts['task-progress'].value === 'task-lifetime',
    cancelIsTerminal: facts['task-cancel'].value === 'terminal-before-answer',
    terminalCancelRefused: facts['task-cancel-terminal'].value === 'invalid-params',
    anyClientFindsIt: facts['task-lookup'].value === 'any-client',
    capabilities: serverDirected ? { extensions: { [EXTENSION]: {} } } : {},
  };
}

/** Whether the server declares tasks where the revision has it declare them, in words. Pure. */
export function advertises(capabilities: Record<string, unknown>, wire: Pick<TaskWire, 'serverDirected'>): { ok: boolean; why: string } {
  if (wire.serverDirected) {
    const extensions = objectAt(capabilities, ['extensions']);
    return objectAt(extensions, [EXTENSION]) === undefined
      ? { ok: false, why: `the server does not list ${EXTENSION} in capabilities.extensions of its server/discover result` }
      : { ok: true, why: `the server lists ${EXTENSION} in capabilities.extensions` };
  }
  return objectAt(capabilities, ['tasks', 'requests', 'tools', 'call']) === undefined
    ? { ok: false, why: 'the server does not declare capabilities.tasks.requests.tools.call in its initialize result' }
    : { ok: true, why: 'the server declares capabilities.tasks.requests.tools.call' };
}
