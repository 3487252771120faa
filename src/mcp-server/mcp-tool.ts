/**
 * One tool of `mcprely mcp`: its declaration as `tools/list` gives it (input and output schemas, read-only
 * annotations) and its handler, a front end over the Node API. A handler never throws for bad input: arguments it
 * cannot take are a tool error (`isError`) that says what to do.
 */

/** What a handler is given besides its arguments. */
export interface ToolContext {
  /** The folder whose files a tool may read (`path` arguments are relative to it and may not leave it). */
  readonly workingFolder: string;
  /** Aborted when the client cancels the call: the handler stops at its next step. */
  readonly signal: AbortSignal;
  /** Tells the client how far the work is (a progress notification, when the request asked for them). */
  readonly progress: (done: number, total: number, message: string) => void;
  /** How many other tool calls the server runs now (every session's). */
  readonly otherCallsRunning: () => number;
}

/** A handler's answer: structured content (valid against its output schema) and the same as text, or a tool error. */
export type ToolOutcome =
  | { readonly ok: true; readonly structured: Readonly<Record<string, unknown>>; readonly text: string }
  | { readonly ok: false; readonly message: string };

export interface McpTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema: Readonly<Record<string, unknown>>;
  run(args: Readonly<Record<string, unknown>>, context: ToolContext): Promise<ToolOutcome>;
}

/** Every tool of `mcprely mcp` reads and computes only: nothing changes, the same input gives the same answer, no outside world. */
export const READ_ONLY_ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** A tool as `tools/list` gives it. */
export function toolListing(tool: McpTool): Record<string, unknown> {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: { title: tool.title, ...READ_ONLY_ANNOTATIONS },
  };
}

/** A tool's outcome as a CallToolResult: the text block always, the structured content on success, `isError` on a tool error. */
export function callToolResult(outcome: ToolOutcome): Record<string, unknown> {
  if (!outcome.ok) return { content: [{ type: 'text', text: outcome.message }], isError: true };
  return { content: [{ type: 'text', text: outcome.text }], structuredContent: outcome.structured };
}

/** A tool error. */
export function toolError(message: string): ToolOutcome {
  return { ok: false, message };
}
