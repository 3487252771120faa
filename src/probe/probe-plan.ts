import { emitsProgress, isKeyedMutation, isMutation, usesTask } from '../policy/predicates.js';
import type { LoadedManifest } from '../manifest/load.js';
import type { ProbePlan } from './probe-types.js';

export interface PlanOptions {
  readonly manifest?: LoadedManifest;
  readonly operation?: string;
  readonly arguments?: Record<string, unknown>;
  readonly allowMutations: boolean;
  readonly idleTimeoutMs?: number;
  readonly maxTimeoutMs?: number;
  readonly graceMs: number;
}

const DEFAULT_IDLE_MS = 10_000;
const DEFAULT_MAX_MS = 30_000;
const LONG_RUNNING = /long|slow|progress|sleep|wait|reindex|export|build|sync/i;

/**
 * What the probe will call and the limits it keeps: the long-running tool from --operation, else from the
 * manifest (an operation that sends progress or runs as a task), else the server's tool list by name; the
 * timeouts from flags, else the manifest, else defaults; a mutation only with --allow-mutations and a key.
 */
export function probePlan(
  options: PlanOptions,
  tools: readonly { name: string; description?: string }[],
): { plan: ProbePlan; notes: string[] } {
  const notes: string[] = [];
  const operations = options.manifest?.operations.map((operation) => operation.spec) ?? [];
  const named = options.operation === undefined ? undefined : operations.find((spec) => spec.name === options.operation);
  const fromManifest =
    named ?? operations.find((spec) => spec.method === 'tools/call' && (emitsProgress(spec) || usesTask(spec)) && !isMutation(spec));
  let longName = options.operation ?? fromManifest?.name;
  if (longName === undefined) {
    longName = tools.find((tool) => LONG_RUNNING.test(tool.name) || LONG_RUNNING.test(tool.description ?? ''))?.name;
    if (longName !== undefined)
      notes.push(`chose ${longName} as the long-running tool from the server's tool list; name another with --operation`);
  }
  if (longName !== undefined && tools.length > 0 && !tools.some((tool) => tool.name === longName))
    notes.push(`the server lists no tool named ${longName}`);
  const longArguments = options.arguments ?? (fromManifest?.name === longName ? { ...(fromManifest?.probe?.arguments ?? {}) } : {});

  const spec = named ?? fromManifest;
  const idleMs = options.idleTimeoutMs ?? spec?.timeouts?.idleMs ?? DEFAULT_IDLE_MS;
  const maxMs = options.maxTimeoutMs ?? spec?.timeouts?.maxMs ?? DEFAULT_MAX_MS;
  const source =
    options.idleTimeoutMs !== undefined || options.maxTimeoutMs !== undefined
      ? 'the command line'
      : spec?.timeouts?.maxMs !== undefined
        ? `the manifest (${spec.name})`
        : 'defaults';

  let mutation: ProbePlan['mutation'];
  if (options.allowMutations) {
    const keyed =
      operations.find(
        (candidate) => isKeyedMutation(candidate) && (options.operation === undefined || candidate.name === options.operation),
      ) ?? operations.find(isKeyedMutation);
    if (keyed === undefined)
      notes.push('--allow-mutations: no manifest operation names an idempotency key argument, so no mutation is called');
    else
      mutation = {
        name: keyed.name,
        arguments: { ...(keyed.probe?.arguments ?? {}) },
        keyArgument: keyed.idempotency!.keyArgument!,
        fingerprint: keyed.idempotency?.fingerprint ?? [],
      };
  }
  const plan: ProbePlan = {
    ...(longName === undefined ? {} : { longTool: { name: longName, arguments: longArguments } }),
    ...(mutation === undefined ? {} : { mutation }),
    timeouts: { idleMs, maxMs, source },
    graceMs: options.graceMs,
    requestTimeoutMs: Math.min(Math.max(maxMs + options.graceMs, 5000), 60_000),
  };
  return { plan, notes };
}
