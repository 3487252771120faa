import type { ToolSummary } from '../probe/tool-summary.js';
import type { SpecVersion } from '../spec/revisions.js';
import { CommentedDocument } from './commented-document.js';
import { SCHEMA_PATH } from './template.js';
import { METHODS } from '../protocol/methods.js';

/** Argument names that carry an idempotency key, by convention. */
const KEY_ARGUMENT =
  /^(idempotency[-_]?key|idem[-_]?key|request[-_]?id|dedup(e|lication)?[-_]?(key|id)|client[-_]?(request|operation)[-_]?id|operation[-_]?id)$/i;
/** A description that says the tool reports progress. */
const SAYS_PROGRESS = /\bprogress\b/i;

export interface ScaffoldInput {
  readonly serverName: string;
  readonly specVersion: SpecVersion;
  readonly transport: 'stdio' | 'streamable-http';
  readonly source: string;
  readonly tools: readonly ToolSummary[];
  /** The `$schema` path in the editor comment, relative to the file written (default: SCHEMA_PATH). */
  readonly schemaPath?: string;
}

/**
 * A starting manifest from a server's tools/list: one operation per tool, the advertised annotations copied,
 * the side effect inferred from them, the tool's execution.taskSupport kept (task.used), a key argument
 * proposed when the input schema has one by a conventional name, progress marked when the description says
 * so — every inferred field listed in x-mcprely-unverified — and the policy left for the author (empty
 * timeouts; no retry or flow control), so mcprely lint reports each decision still to make.
 */
export function scaffoldManifest(input: ScaffoldInput): string {
  const operations = input.tools.map((tool) => scaffoldOperation(tool));
  const doc = new CommentedDocument(
    {
      mcprely: 1,
      specVersion: input.specVersion,
      server: { name: input.serverName, transports: [input.transport] },
      operations: operations.map(({ value }) => value),
    },
    [
      `yaml-language-server: $schema=${input.schemaPath ?? SCHEMA_PATH}`,
      `Written by mcprely init from the tools/list of ${input.source.replace(/[\r\n]+/g, ' ')}.`,
      'Fields listed in x-mcprely-unverified were inferred from tool annotations, which are untrusted hints:',
      'confirm each against the implementation, then remove it from the list. Run mcprely lint on this file:',
      'it reports every decision still to make (timeouts, retry, idempotency, flow control, recovery).',
    ],
  );
  doc.quote(['specVersion']);
  if (misread(input.serverName)) doc.quote(['server', 'name']);
  doc.flow(['server', 'transports']);
  if (operations.length === 0) {
    doc.flow(['operations']);
    doc.comment(['operations'], 'TODO: the server listed no tools');
  }
  operations.forEach(({ value, comments }, index) => {
    const at = (field: string) => ['operations', index, field];
    if (value.description !== undefined) doc.quote(at('description'));
    if (misread(value.name)) doc.quote(at('name'));
    for (const field of ['annotations', 'task', 'idempotency', 'progress', 'x-mcprely-unverified', 'timeouts']) doc.flow(at(field));
    for (const [field, text] of Object.entries(comments)) doc.comment(at(field), text);
  });
  return doc.toString();
}

/** A name another YAML reader might take for something else (a YAML 1.1 boolean, a number, null): quoted. */
function misread(name: string): boolean {
  return !/^[A-Za-z_][\w.-]*$/.test(name) || /^(true|false|null|yes|no|on|off|y|n|~)$/i.test(name);
}

/** One tool's operation, and the comment each inferred or open field carries. */
function scaffoldOperation(tool: ToolSummary): { value: ScaffoldedOperation; comments: Record<string, string> } {
  const hints = tool.annotations ?? {};
  const inferred = hints.readOnlyHint === true ? 'none' : hints.idempotentHint === true ? 'idempotent' : 'mutation';
  const why =
    hints.readOnlyHint === true
      ? 'readOnlyHint: true'
      : hints.idempotentHint === true
        ? 'idempotentHint: true'
        : 'no read-only or idempotent hint';
  const comments: Record<string, string> = { sideEffect: `unverified: inferred from ${why}` };
  const unverified = ['sideEffect'];
  const advertised = Object.fromEntries(Object.entries(hints).filter(([, value]) => typeof value === 'boolean'));
  if (Object.keys(advertised).length > 0) comments['annotations'] = 'as advertised';
  const task = tool.taskSupport === 'required' ? { used: true } : tool.taskSupport === 'optional' ? { used: false } : undefined;
  if (tool.taskSupport === 'required') comments['task'] = 'as advertised: execution.taskSupport is required';
  else if (tool.taskSupport === 'optional') comments['task'] = 'execution.taskSupport is optional: decide whether to run it as a task';
  const key = inferred === 'none' ? undefined : tool.arguments?.find((name) => KEY_ARGUMENT.test(name));
  if (key !== undefined) {
    const required = (tool.required ?? []).includes(key);
    comments['idempotency'] = `unverified: proposed from the input schema${required ? '' : ' (where it is optional)'}`;
    unverified.push('idempotency.keyArgument');
  }
  const progress = SAYS_PROGRESS.test(tool.description ?? '');
  if (progress) {
    comments['progress'] = 'unverified: its description says it reports progress';
    unverified.push('progress.emits');
  }
  comments['timeouts'] = 'TODO: idleMs and maxMs';
  return {
    value: {
      name: tool.name,
      method: METHODS.toolsCall,
      ...(tool.description === undefined || tool.description === '' ? {} : { description: tool.description }),
      sideEffect: inferred,
      ...(Object.keys(advertised).length > 0 ? { annotations: advertised } : {}),
      ...(task === undefined ? {} : { task }),
      ...(key === undefined ? {} : { idempotency: { keyArgument: key } }),
      ...(progress ? { progress: { emits: true } } : {}),
      'x-mcprely-unverified': unverified,
      timeouts: {},
    },
    comments,
  };
}

interface ScaffoldedOperation {
  readonly name: string;
  readonly description?: string;
  readonly [field: string]: unknown;
}
