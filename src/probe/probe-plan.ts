import type { LoadedManifest } from '../manifest/load.js';
import type { OperationSpec, WorkStatusProbe } from '../manifest/types.js';
import { emitsProgress, isKeyedMutation, usesTask } from '../policy/predicates.js';
import { METHODS } from '../protocol/methods.js';

/** A tool as tools/list describes it (the parts the plan reads). */
export interface ListedTool {
  readonly name: string;
  readonly description?: string;
  readonly annotations?: { readonly readOnlyHint?: unknown; readonly destructiveHint?: unknown };
  readonly execution?: { readonly taskSupport?: unknown };
}

/** A tool's execution.taskSupport: `forbidden` also when absent or not one of the three words. */
export type TaskSupport = 'required' | 'optional' | 'forbidden';

export function taskSupportOf(tool: ListedTool): TaskSupport {
  const support = typeof tool.execution === 'object' && tool.execution !== null ? tool.execution.taskSupport : undefined;
  return support === 'required' || support === 'optional' ? support : 'forbidden';
}

export interface PlanOptions {
  readonly manifest?: LoadedManifest;
  readonly operation?: string;
  readonly arguments?: Record<string, unknown>;
  readonly allowMutations: boolean;
  readonly idleTimeoutMs?: number;
  readonly maxTimeoutMs?: number;
  readonly graceMs: number;
  /** The probe's own budget for everything (--max-time), in ms. */
  readonly maxTimeMs: number;
}

/** The long-running tool the request checks call, with why the probe may call it. */
export interface ToolChoice {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly why: string;
  /** What the tool's execution.taskSupport says (absent: forbidden). */
  readonly taskSupport: TaskSupport;
}

/** What the probe will call and the limits it keeps. */
export interface ProbePlan {
  readonly longTool?: ToolChoice;
  /** Why no long-running tool is called, when none is. */
  readonly noLongTool?: string;
  /**
   * The tool the tasks check runs as a task: the long-running tool when it supports tasks (execution.taskSupport
   * required or optional), else the first tool the probe may call that does.
   */
  readonly taskTool?: ToolChoice;
  /** Why no tool is run as a task, when none is. */
  readonly noTaskTool?: string;
  /** Present only with --allow-mutations and a manifest that names the key argument. */
  readonly mutation?: {
    readonly name: string;
    readonly arguments: Record<string, unknown>;
    readonly keyArgument: string;
    readonly fingerprint: readonly string[];
  };
  /** The status tool the manifest names for the long-running tool, through which the probe sees whether its work runs. */
  readonly workStatus?: WorkStatusProbe;
  readonly timeouts: { readonly idleMs: number; readonly maxMs: number; readonly source: string };
  /** How long the probe watches for messages that must not come (after a cancellation or completion). */
  readonly graceMs: number;
  /** The probe's own maximum wait for an ordinary request (tools/list, a mutation). */
  readonly requestTimeoutMs: number;
  /**
   * The longest the probe lets one run of the long-running tool take, or watches a cancelled one: two fifths of its
   * budget (--max-time), at most 65 s. A run that outlasts it is inconclusive: the probe's limit, not the server's fault.
   */
  readonly longRunMs: number;
}

export type PlanResult =
  | { readonly ok: true; readonly plan: ProbePlan; readonly notes: readonly string[] }
  | { readonly ok: false; readonly usage: string };

const DEFAULT_IDLE_MS = 10_000;
const DEFAULT_MAX_MS = 30_000;
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_LONG_RUN_MS = 65_000;
/** Words that name long-running work, matched as whole words of a tool's name or description. */
const LONG_RUNNING = new Set(['long', 'slow', 'progress', 'sleep', 'wait', 'reindex', 'export', 'build', 'sync']);

/**
 * Chooses what the probe calls, safely: a tool it calls several times must be known not to change state —
 * read-only by the manifest's contract (sideEffect: none), or else by its annotations (readOnlyHint: true and
 * not destructiveHint) — unless --allow-mutations is given. --operation names the tool; an unknown name, or
 * one that may change state without --allow-mutations, is a usage error. Every choice says why.
 */
export function probePlan(options: PlanOptions, tools: readonly ListedTool[], serverDecidesTasks = false): PlanResult {
  const notes: string[] = [];
  const operations = options.manifest?.operations.map((operation) => operation.spec) ?? [];
  const listed = new Map(tools.map((tool) => [tool.name, tool]));
  const contract = (name: string) => operations.find((spec) => spec.name === name);
  let longTool: ToolChoice | undefined;
  let noLongTool: string | undefined;
  if (options.operation !== undefined) {
    const name = options.operation;
    const tool = listed.get(name);
    if (tool === undefined) {
      return {
        ok: false,
        usage: `the server lists no tool named ${name}; it lists ${tools.length === 0 ? 'no tools' : tools.map((candidate) => candidate.name).join(', ')}`,
      };
    }
    const safety = safetyOf(tool, contract(name));
    if (!safety.safe && !options.allowMutations) {
      return {
        ok: false,
        usage:
          `${name} may change state (${safety.why}), and the probe calls it several times; ` +
          'pass --allow-mutations to call it anyway, or name a read-only tool',
      };
    }
    longTool = {
      name,
      arguments: argumentsFor(options, contract(name)),
      why: `named with --operation; ${safety.safe ? safety.why : `${safety.why}, called because --allow-mutations was given`}`,
      taskSupport: taskSupportOf(tool),
    };
  } else {
    const chosen = choose(options, operations, tools);
    if ('tool' in chosen) longTool = chosen.tool;
    else noLongTool = chosen.none;
  }
  if (longTool !== undefined) notes.push(`calls ${longTool.name}: ${longTool.why}`);
  else notes.push(`calls no long-running tool: ${noLongTool}`);
  const task = chooseTaskTool(options, operations, tools, longTool, serverDecidesTasks);
  if ('tool' in task && task.tool !== longTool) notes.push(`runs ${task.tool.name} as a task: ${task.tool.why}`);

  const spec = longTool === undefined ? undefined : contract(longTool.name);
  const idleMs = options.idleTimeoutMs ?? spec?.timeouts?.idleMs ?? DEFAULT_IDLE_MS;
  const maxMs = options.maxTimeoutMs ?? spec?.timeouts?.maxMs ?? DEFAULT_MAX_MS;
  const source =
    options.idleTimeoutMs !== undefined || options.maxTimeoutMs !== undefined
      ? 'the command line'
      : spec?.timeouts?.maxMs !== undefined
        ? `the manifest (${spec.name})`
        : 'defaults';

  // The status tool is called several times: it must be listed, and known not to change state.
  let workStatus = spec?.probe?.workStatus;
  if (workStatus !== undefined) {
    const statusTool = listed.get(workStatus.tool);
    const safety = statusTool === undefined ? undefined : safetyOf(statusTool, contract(workStatus.tool));
    if (safety === undefined || !safety.safe) {
      notes.push(
        `does not call the status tool ${workStatus.tool} (probe.workStatus): ` +
          (safety === undefined ? 'the server lists no tool of that name' : `it may change state (${safety.why})`),
      );
      workStatus = undefined;
    } else notes.push(`asks ${workStatus.tool} whether cancelled work still runs (probe.workStatus; ${safety.why})`);
  }
  let mutation: ProbePlan['mutation'];
  if (options.allowMutations) {
    const keyed = operations.filter((candidate) => isKeyedMutation(candidate) && listed.has(candidate.name));
    const pick = keyed.find((candidate) => candidate.name === options.operation) ?? keyed[0];
    if (pick === undefined)
      notes.push(
        '--allow-mutations: no manifest operation the server lists is a mutation with an idempotency key argument, so no mutation is called',
      );
    else
      mutation = {
        name: pick.name,
        arguments: { ...(pick.probe?.arguments ?? {}) },
        keyArgument: pick.idempotency!.keyArgument!,
        fingerprint: pick.idempotency?.fingerprint ?? [],
      };
  }
  return {
    ok: true,
    plan: {
      ...(longTool === undefined ? {} : { longTool }),
      ...(noLongTool === undefined ? {} : { noLongTool }),
      ...('tool' in task ? { taskTool: task.tool } : { noTaskTool: task.none }),
      ...(mutation === undefined ? {} : { mutation }),
      ...(workStatus === undefined ? {} : { workStatus }),
      timeouts: { idleMs, maxMs, source },
      graceMs: options.graceMs,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      longRunMs: Math.round(Math.min(MAX_LONG_RUN_MS, Math.max(2000, (options.maxTimeMs * 2) / 5))),
    },
    notes,
  };
}

/** Whether calling the tool cannot change state: the manifest's contract first, then the tool's own annotations. */
export function safetyOf(tool: ListedTool, spec: OperationSpec | undefined): { safe: boolean; why: string } {
  if (spec?.sideEffect !== undefined) {
    return spec.sideEffect === 'none'
      ? { safe: true, why: 'read-only by the manifest (sideEffect: none)' }
      : { safe: false, why: `the manifest declares sideEffect: ${spec.sideEffect}` };
  }
  const annotations = tool.annotations ?? {};
  if (annotations.readOnlyHint === true && annotations.destructiveHint !== true)
    return { safe: true, why: 'read-only by its annotations (readOnlyHint: true)' };
  if (annotations.destructiveHint === true) return { safe: false, why: 'its annotations say destructiveHint: true' };
  return {
    safe: false,
    why:
      annotations.readOnlyHint === false
        ? 'its annotations say readOnlyHint: false'
        : 'it is not annotated read-only (tools are assumed to change state unless readOnlyHint says otherwise)',
  };
}

function choose(
  options: PlanOptions,
  operations: readonly OperationSpec[],
  tools: readonly ListedTool[],
): { tool: ToolChoice } | { none: string } {
  const listed = new Map(tools.map((tool) => [tool.name, tool]));
  const allowed = (tool: ListedTool, spec: OperationSpec | undefined) => {
    const safety = safetyOf(tool, spec);
    // With --allow-mutations a tool that may change state is acceptable, one declared destructive never is (name it explicitly).
    return safety.safe || (options.allowMutations && tool.annotations?.destructiveHint !== true);
  };
  for (const spec of operations) {
    const tool = listed.get(spec.name);
    const runsLong = emitsProgress(spec) || usesTask(spec) || spec.probe?.arguments !== undefined;
    if (tool === undefined || spec.method !== METHODS.toolsCall || !runsLong || !allowed(tool, spec)) continue;
    const safety = safetyOf(tool, spec);
    return {
      tool: {
        name: spec.name,
        arguments: argumentsFor(options, spec),
        why:
          `the manifest says it ${emitsProgress(spec) ? 'sends progress' : usesTask(spec) ? 'runs as a task' : 'runs long with its probe.arguments'}; ` +
          (safety.safe ? safety.why : `${safety.why}, allowed by --allow-mutations`),
        taskSupport: taskSupportOf(tool),
      },
    };
  }
  const candidates = tools.filter((tool) =>
    allowed(
      tool,
      operations.find((spec) => spec.name === tool.name),
    ),
  );
  const long = candidates.find((tool) => wordsOf(`${tool.name} ${tool.description ?? ''}`).some((word) => LONG_RUNNING.has(word)));
  if (long !== undefined) {
    const safety = safetyOf(
      long,
      operations.find((spec) => spec.name === long.name),
    );
    return {
      tool: {
        name: long.name,
        arguments: argumentsFor(
          options,
          operations.find((spec) => spec.name === long.name),
        ),
        why: `its name or description says it runs long; ${safety.safe ? safety.why : `${safety.why}, allowed by --allow-mutations`}`,
        taskSupport: taskSupportOf(long),
      },
    };
  }
  const safe = tools.filter((tool) => safetyOf(tool, undefined).safe).map((tool) => tool.name);
  return {
    none:
      candidates.length === 0
        ? `no listed tool is known to be read-only (${tools.length} listed); name one with --operation, describe them in a manifest, or pass --allow-mutations`
        : `no read-only tool says it runs long (read-only: ${safe.join(', ') || 'none'}); name one with --operation`,
  };
}

/**
 * The tool the tasks check runs as a task: the long-running tool when it supports tasks (or whatever it says, where
 * the server declares that it decides per request which calls become tasks); else a tool the manifest
 * runs as a task, then any listed tool whose execution.taskSupport is required or optional — each only if the probe
 * may call it (read-only, or --allow-mutations and not destructive), with the manifest's probe.arguments.
 */
function chooseTaskTool(
  options: PlanOptions,
  operations: readonly OperationSpec[],
  tools: readonly ListedTool[],
  longTool: ToolChoice | undefined,
  serverDecidesTasks: boolean,
): { tool: ToolChoice } | { none: string } {
  if (longTool !== undefined && (longTool.taskSupport !== 'forbidden' || serverDecidesTasks)) return { tool: longTool };
  const capable = tools.filter((tool) => taskSupportOf(tool) !== 'forbidden');
  if (capable.length === 0) return { none: 'no listed tool says execution.taskSupport: required or optional' };
  const contract = (name: string) => operations.find((spec) => spec.name === name);
  const declared = (tool: ListedTool) => {
    const spec = contract(tool.name);
    return spec !== undefined && usesTask(spec);
  };
  const ranked = [...capable.filter(declared), ...capable.filter((tool) => !declared(tool))];
  for (const tool of ranked) {
    const spec = contract(tool.name);
    const safety = safetyOf(tool, spec);
    if (!safety.safe && (!options.allowMutations || tool.annotations?.destructiveHint === true)) continue;
    return {
      tool: {
        name: tool.name,
        arguments: { ...(spec?.probe?.arguments ?? {}) },
        why:
          `its execution.taskSupport is ${taskSupportOf(tool)}; ` +
          (safety.safe ? safety.why : `${safety.why}, allowed by --allow-mutations`) +
          (spec?.probe?.arguments === undefined ? '' : ", with the manifest's probe.arguments"),
        taskSupport: taskSupportOf(tool),
      },
    };
  }
  return {
    none:
      `${capable.map((tool) => tool.name).join(', ')} ${capable.length === 1 ? 'supports' : 'support'} tasks but may change state: ` +
      'pass --allow-mutations (with --operation and --arguments to choose one and its arguments)',
  };
}

function argumentsFor(options: PlanOptions, spec: OperationSpec | undefined): Record<string, unknown> {
  return options.arguments ?? { ...(spec?.probe?.arguments ?? {}) };
}

/** The words of a name or sentence: split at separators and at camelCase humps, lower case. */
function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}
