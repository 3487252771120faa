import { METHODS } from '../protocol/methods.js';
/**
 * How an operation's requests look and end on the wire, by its method (and whether it runs as a Task). The
 * fixture generators choose which scenarios apply from it, the simulator writes each message from it, and
 * the review's race tables pick their rows by it, so a Task is never played as a plain request, nor a
 * resources/read as a tool call.
 *
 * - `call`: `tools/call` answered by one response (progress when the policy emits it).
 * - `task`: `tools/call` augmented with a Task: the answer is a task id at once; the client polls
 *   `tasks/get` (or listens) until a terminal status, cancels with `tasks/cancel`, and after a drop polls by
 *   id, never re-creates the task or sends `notifications/cancelled` for it.
 * - `listen`: `subscriptions/listen`: a long-lived stream of notifications, no progress on it, no result; ended
 *   by the client closing it (or cancelling on stdio) or by the server; after a drop re-issued with a new id
 *   that restores the filter.
 * - `read`: `resources/read` of a URI (the declared template filled in); progress only when declared.
 * - `prompt`: `prompts/get` of a named prompt with arguments.
 * - `request`: any other request (lists, completion, subscribe), answered by one response.
 */
export type MethodProtocol = 'call' | 'task' | 'listen' | 'read' | 'prompt' | 'request';

export function methodProtocol(method: string, usesTask: boolean): MethodProtocol {
  if (method === 'subscriptions/listen') return 'listen';
  if (method === METHODS.toolsCall) return usesTask ? 'task' : 'call';
  if (method === METHODS.resourcesRead) return 'read';
  if (method === METHODS.promptsGet) return 'prompt';
  return 'request';
}

/** A URI template (RFC 6570 level 1, `{name}`) with each variable filled by a deterministic sample value. */
export function fillUriTemplate(template: string): string {
  return template.replace(/\{([^{}]*)\}/g, (_, name: string) => `${name.replace(/[^A-Za-z0-9_-]/g, '') || 'value'}-7`);
}

/** The URI a read operation asks for: its declared `uri` filled in; else its name when that is a URI; else none. */
export function resourceUriOf(operation: { readonly name: string; readonly uri?: string }): string | undefined {
  if (operation.uri !== undefined) return fillUriTemplate(operation.uri);
  return /^[a-z][a-z0-9+.-]*:/i.test(operation.name) ? fillUriTemplate(operation.name) : undefined;
}

/** The protocol of a manifest operation (its defaults merged in). */
export function protocolOf(operation: { readonly method: string; readonly task?: { readonly used?: boolean } }): MethodProtocol {
  return methodProtocol(operation.method, operation.task?.used === true);
}
