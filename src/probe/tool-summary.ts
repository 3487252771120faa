import { truncated } from '../text/display-text.js';
import { isRecord } from '../protocol/message-guards.js';

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
export type Hint = (typeof HINTS)[number];

/** What the spec says a hint means when a tool does not give it. */
export const HINT_DEFAULTS: Readonly<Record<Hint, boolean>> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/** A listed tool as the report keeps it: what drift and init compare with a manifest, bounded. */
export interface ToolSummary {
  readonly name: string;
  readonly description?: string;
  /** The hints the tool gives (booleans only). */
  readonly annotations?: Partial<Record<Hint, boolean>>;
  /** The names of inputSchema.properties, when the schema lists them. */
  readonly arguments?: readonly string[];
  /** inputSchema.required. */
  readonly required?: readonly string[];
  /** execution.taskSupport, when the tool gives it. */
  readonly taskSupport?: string;
}

const MAX_TOOLS = 1000;
const MAX_ARGUMENTS = 200;

/** tools/list's entries (untrusted data) to summaries: malformed entries are left out, every list and text bounded. */
export function summariseTools(tools: readonly unknown[]): ToolSummary[] {
  const summaries: ToolSummary[] = [];
  for (const tool of tools.slice(0, MAX_TOOLS)) {
    if (!isRecord(tool) || typeof tool['name'] !== 'string') continue;
    const annotations = isRecord(tool['annotations'])
      ? Object.fromEntries(
          HINTS.filter((hint) => typeof (tool['annotations'] as Record<string, unknown>)[hint] === 'boolean').map((hint) => [
            hint,
            (tool['annotations'] as Record<string, boolean>)[hint],
          ]),
        )
      : undefined;
    const schema = isRecord(tool['inputSchema']) ? tool['inputSchema'] : undefined;
    const properties =
      schema !== undefined && isRecord(schema['properties']) ? Object.keys(schema['properties']).slice(0, MAX_ARGUMENTS) : undefined;
    const required =
      schema !== undefined && Array.isArray(schema['required'])
        ? schema['required'].filter((name): name is string => typeof name === 'string').slice(0, MAX_ARGUMENTS)
        : undefined;
    const execution = isRecord(tool['execution']) ? tool['execution'] : undefined;
    const taskSupport = typeof execution?.['taskSupport'] === 'string' ? execution['taskSupport'] : undefined;
    summaries.push({
      name: truncated(tool['name'], 200),
      ...(typeof tool['description'] === 'string' ? { description: truncated(tool['description'], 500) } : {}),
      ...(annotations === undefined || Object.keys(annotations).length === 0 ? {} : { annotations }),
      ...(properties === undefined ? {} : { arguments: properties.map((name) => truncated(name, 200)) }),
      ...(required === undefined ? {} : { required: required.map((name) => truncated(name, 200)) }),
      ...(taskSupport === undefined ? {} : { taskSupport: truncated(taskSupport, 40) }),
    });
  }
  return summaries;
}

export const TOOL_HINTS = HINTS;
