import type { ToolSummary } from '../probe/tool-summary.js';
import type { SpecVersion } from '../spec/revisions.js';
import { CommentedDocument } from './commented-document.js';
import { DECIDE, SCHEMA_PATH } from './template.js';
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
  /** What init --observe saw on the wire, by tool name (`''`: the server's own claims), written with its comments. */
  readonly observed?: ReadonlyMap<string, ObservedNotes>;
}

/** A claim init writes from what it observed: the field (dotted, under the operation or from the root), its value, its comment. */
export interface WrittenClaim {
  readonly field: string;
  readonly value: unknown;
  readonly comment: string;
}

/** What was observed of one tool (or of the server): the claims seen, and each decision left open with why (comments). */
export interface ObservedNotes {
  readonly claims: readonly WrittenClaim[];
  readonly open: readonly string[];
  /** Comments that replace the scaffold's own on these fields (timeouts: with how long a run took). */
  readonly comments?: Readonly<Record<string, string>>;
}

/**
 * A starting manifest from a server's tools/list: one operation per tool, the advertised annotations copied,
 * the side effect inferred from them, the tool's execution.taskSupport kept (task.used), a key argument
 * proposed when the input schema has one by a conventional name, progress marked when the description says
 * so — every inferred field listed in x-mcprely-unverified — and the policy left for the author (empty
 * timeouts; no retry or flow control), so mcprely lint reports each decision still to make.
 */
export function scaffoldManifest(input: ScaffoldInput): string {
  const operations = input.tools.map((tool) => observedOperation(scaffoldOperation(tool), input.observed?.get(tool.name)));
  const server = input.observed?.get('');
  const root: Record<string, unknown> = {
    mcprely: 1,
    specVersion: input.specVersion,
    server: { name: input.serverName, transports: [input.transport] },
    operations: operations.map(({ value }) => value),
  };
  for (const claim of server?.claims ?? []) setField(root, claim.field, claim.value);
  const doc = new CommentedDocument(root, [
    `yaml-language-server: $schema=${input.schemaPath ?? SCHEMA_PATH}`,
    `Written by mcprely init from the tools/list of ${input.source.replace(/[\r\n]+/g, ' ')}.`,
    'Fields listed in x-mcprely-unverified were inferred from tool annotations, which are untrusted hints:',
    'confirm each against the implementation, then remove it from the list. Run mcprely lint on this file:',
    'it reports every decision still to make (timeouts, retry, idempotency, flow control, recovery).',
  ]);
  doc.quote(['specVersion']);
  if (misread(input.serverName)) doc.quote(['server', 'name']);
  doc.flow(['server', 'transports']);
  for (const claim of server?.claims ?? []) doc.comment(claim.field.split('.'), claim.comment);
  if (server?.claims.some((claim) => claim.field === 'server.http.sseHeaders')) {
    doc.flow(['server', 'http', 'sseHeaders']);
    // "no" is a boolean to a YAML 1.1 reader.
    doc.quote(['server', 'http', 'sseHeaders', 'X-Accel-Buffering']);
  }
  if (server !== undefined && server.open.length > 0) doc.comment(['server'], decisions(server.open), true);
  if (operations.length === 0) {
    doc.flow(['operations']);
    doc.comment(['operations'], 'TODO: the server listed no tools');
  }
  operations.forEach(({ value, comments, observed }, index) => {
    const at = (field: string) => ['operations', index, ...field.split('.')];
    if (value.description !== undefined) doc.quote(at('description'));
    if (misread(value.name)) doc.quote(at('name'));
    // A mapping whose fields carry a comment each is written a field a line.
    const commented = new Set(observed?.claims.map((claim) => claim.field.split('.')[0]));
    for (const field of ['annotations', 'task', 'idempotency', 'progress', 'x-mcprely-unverified', 'timeouts'])
      if (!commented.has(field)) doc.flow(at(field));
    for (const [field, text] of Object.entries(comments)) doc.comment(at(field), text);
    for (const claim of observed?.claims ?? []) doc.comment(at(claim.field), claim.comment);
    if (observed !== undefined && observed.open.length > 0) doc.comment(at('timeouts'), decisions(observed.open), true);
  });
  return doc.toString();
}

/**
 * An operation with what was observed of its tool: each claim seen set at its field (a field inferred from the
 * description and now seen on the wire is no longer unverified, nor commented as inferred).
 */
function observedOperation(
  scaffolded: { value: ScaffoldedOperation; comments: Record<string, string> },
  observed: ObservedNotes | undefined,
): { value: ScaffoldedOperation; comments: Record<string, string>; observed?: ObservedNotes } {
  if (observed === undefined) return scaffolded;
  const value: Record<string, unknown> = { ...scaffolded.value };
  const comments = { ...scaffolded.comments };
  for (const claim of observed.claims) {
    const [head] = claim.field.split('.');
    value[head!] = { ...((value[head!] as Record<string, unknown> | undefined) ?? {}) };
    setField(value, claim.field, claim.value);
    delete comments[head!];
  }
  Object.assign(comments, observed.comments);
  const seen = new Set(observed.claims.map((claim) => claim.field));
  value['x-mcprely-unverified'] = (value['x-mcprely-unverified'] as string[]).filter((field) => !seen.has(field));
  // The fields go in the order a reader expects them (the scaffold's), the ones observed after progress.
  const { 'x-mcprely-unverified': unverified, timeouts, ...rest } = value;
  return { value: { ...(rest as ScaffoldedOperation), 'x-mcprely-unverified': unverified, timeouts }, comments, observed };
}

/** Decisions left open, one comment line each, marked DECIDE. */
function decisions(open: readonly string[]): string {
  return open.map((line) => `${DECIDE} ${line}`).join('\n ');
}

/** Sets the value at a dotted path, making the mappings on the way. */
function setField(target: Record<string, unknown>, field: string, value: unknown): void {
  const segments = field.split('.');
  let node = target;
  for (const segment of segments.slice(0, -1)) {
    const next = node[segment];
    node[segment] = typeof next === 'object' && next !== null && !Array.isArray(next) ? { ...(next as object) } : {};
    node = node[segment] as Record<string, unknown>;
  }
  node[segments[segments.length - 1]!] = value;
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
