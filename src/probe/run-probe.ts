import { splitCommand } from './command-line.js';
import { cancelBeforeCompletion } from './checks/cancel-before-completion.js';
import { clientTimeouts } from './checks/client-timeouts.js';
import { getNotAllowed, sseHeaders } from './checks/http-transport.js';
import { idempotentReplay } from './checks/idempotent-replay.js';
import { ignoredCancellations } from './checks/ignored-cancellations.js';
import { progressToCompletion } from './checks/progress.js';
import type { Connection, ProbeRevision } from './connection.js';
import { HttpConnection } from './http-connection.js';
import { probePlan, type PlanOptions } from './probe-plan.js';
import type { CheckResult, ProbeCheck, ProbeReport } from './probe-types.js';
import { ProbeSession } from './session.js';
import { StdioConnection } from './stdio-connection.js';
import { WireLog } from './wire-log.js';

// Progress runs first: it measures how long the tool takes uncancelled, which the cancellation checks
// then watch for, so a response that would have come at the end is not missed.
export const PROBE_CHECKS: readonly ProbeCheck[] = [
  progressToCompletion,
  cancelBeforeCompletion,
  clientTimeouts,
  ignoredCancellations,
  sseHeaders,
  getNotAllowed,
  idempotentReplay,
];

export interface ProbeOptions extends PlanOptions {
  readonly target: { readonly stdio: string } | { readonly url: string };
  readonly specVersion?: ProbeRevision;
  /** The probe's own budget for everything, in ms. */
  readonly maxTimeMs: number;
  /** Called before each check, for a progress display. */
  readonly onCheck?: (index: number, total: number, id: string) => void;
}

/**
 * Probes a live server: connects (running only the command or URL given), performs the revision's
 * handshake, then runs each check in turn within the probe's own time budget. Never throws for anything
 * the server does; a server that cannot be reached gives a report that says why.
 */
export async function runProbe(options: ProbeOptions): Promise<ProbeReport> {
  const started = performance.now();
  const clock = () => performance.now() - started;
  const log = new WireLog(clock, 5000);
  const targetText = 'stdio' in options.target ? options.target.stdio : options.target.url;
  let connection: Connection;
  if ('stdio' in options.target) {
    connection = new StdioConnection(splitCommand(options.target.stdio), log, clock);
  } else {
    connection = new HttpConnection(new URL(options.target.url), log, clock);
  }
  const base = { version: 1 as const, target: targetText, transport: connection.transport };
  try {
    const session = new ProbeSession(connection, log);
    const opened = await withBudget(session.open(options.specVersion ?? options.manifest?.manifest.specVersion, 10_000), 15_000);
    if (opened === undefined || !opened.ok) {
      return {
        ...base,
        revision: 'unknown',
        startedOk: false,
        problem: opened === undefined ? 'the handshake did not finish within 15 s' : opened.reason,
        checks: [],
        observations: observations(connection),
        ...stderrOf(connection),
      };
    }
    const listed = await session.request('tools/list', {}, 5000);
    const tools = ((listed?.message['result'] as { tools?: { name: string; description?: string }[] } | undefined)?.tools ?? []).filter(
      (tool) => typeof tool?.name === 'string',
    );
    const { plan, notes } = probePlan(options, tools);
    for (const note of notes) log.note(note);
    const context = { session, log, plan, revision: session.revision, clock, measured: {} };
    const checks: CheckResult[] = [];
    for (const [index, check] of PROBE_CHECKS.entries()) {
      options.onCheck?.(index, PROBE_CHECKS.length, check.id);
      const from = log.entries.length;
      const checkStart = clock();
      const left = options.maxTimeMs - checkStart;
      const result =
        left <= 0
          ? { status: 'skip' as const, summary: `not run: the probe's budget of ${options.maxTimeMs} ms is spent`, details: [] }
          : connection.broken !== undefined
            ? { status: 'fail' as const, summary: `not run: ${connection.broken}`, details: [] }
            : ((await withBudget(check.run(context), left)) ?? {
                status: 'fail' as const,
                summary: `did not finish within the probe's remaining budget of ${Math.round(left)} ms`,
                details: [],
              });
      checks.push({
        id: check.id,
        title: check.title,
        basis: check.basis,
        ...result,
        transcript: log.entries.slice(from),
        durationMs: Math.round(clock() - checkStart),
      });
    }
    return {
      ...base,
      revision: session.revision,
      startedOk: true,
      checks,
      observations: observations(connection),
      ...stderrOf(connection),
    };
  } finally {
    await connection.close();
  }
}

async function withBudget<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the connection saw of the server as a whole. */
function observations(connection: Connection): string[] {
  const seen: string[] = [];
  const garbage = connection.other.garbage;
  if (garbage.count > 0)
    seen.push(`the server wrote ${garbage.count} line(s) that are not JSON-RPC messages, e.g. ${JSON.stringify(garbage.samples[0])}`);
  if (connection.broken !== undefined) seen.push(connection.broken);
  return seen;
}

function stderrOf(connection: Connection): { stderr?: string } {
  return connection instanceof StdioConnection && connection.stderr !== '' ? { stderr: connection.stderr } : {};
}
