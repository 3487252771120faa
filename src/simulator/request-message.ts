import type { Fixture } from '../fixtures/fixture-types.js';
import { methodProtocol, type MethodProtocol } from '../policy/method-protocol.js';
import { METHODS } from '../protocol/methods.js';

/** The protocol a fixture's operation plays (older fixture files without `task.used` are tasks by their kind). */
export function protocolOfFixture(fixture: Fixture): MethodProtocol {
  return methodProtocol(fixture.method, fixture.parameters.task.used ?? fixture.kind.startsWith('task-'));
}

/** The filter a subscription asks for: a stand-in naming the stream, restored (or not) when it is re-issued. */
function listenFilter(fixture: Fixture): Record<string, unknown> {
  return { subscription: fixture.operation };
}

/**
 * The params of the operation's request as its method defines them: a tool's name and arguments (with the
 * Task augmentation for a task), a resource's URI, a prompt's name, a subscription's filter; the progress
 * token in `_meta` only when one is asked for.
 */
export function requestParams(
  fixture: Fixture,
  progressToken: string | undefined,
  reissue?: { readonly restoresFilter: boolean; readonly carriesToolName: boolean },
): Record<string, unknown> {
  const meta = progressToken === undefined ? {} : { _meta: { progressToken } };
  // A Task's poll (the request a Task's deadlines apply to).
  if (fixture.method === METHODS.tasksGet) return { taskId: 't1' };
  switch (protocolOfFixture(fixture)) {
    case 'call':
    case 'prompt':
      return { name: fixture.operation, arguments: {}, ...meta };
    case 'task':
      return { name: fixture.operation, arguments: {}, task: {}, ...meta };
    case 'read':
      return { uri: fixture.parameters.request?.uri ?? `undeclared:${fixture.operation}`, ...meta };
    case 'listen':
      if (reissue === undefined) return { filter: listenFilter(fixture) };
      return {
        ...(reissue.carriesToolName ? { name: fixture.operation } : {}),
        ...(reissue.restoresFilter ? { filter: listenFilter(fixture) } : {}),
      };
    case 'request':
      return { ...meta };
  }
}
