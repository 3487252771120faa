import { type ScaffoldInput, scaffoldManifest } from '../init/scaffold-manifest.js';
import { type ObservationPlan, observationPlan } from '../init/observation-plan.js';
import { observedManifest } from '../init/observed-manifest.js';
import type { Connection, ProbeRevision } from '../probe/connection.js';
import { HttpConnection } from '../probe/http-connection.js';
import { type AddedHeader, redactSecrets, secretsOf } from '../probe/request-headers.js';
import { ProbeSession } from '../probe/session.js';
import { StdioConnection } from '../probe/stdio-connection.js';
import { summariseTools } from '../probe/tool-summary.js';
import { WireLog } from '../probe/wire-log.js';
import { SCHEMA_PATH } from '../init/template.js';
import { displayText } from '../text/display-text.js';
import type { OnProbeEvent } from './on-progress.js';
import { observeTools } from './observe-tools.js';
import { type ProbeTarget, probeTarget } from './probe-target.js';

/** How long the handshake and each `tools/list` page may take. */
const LISTING_MS = 10_000;

/** Each tool's probe budget under `observe` by default: a run of up to 24 s (two fifths), cancelled and timed out. */
export const OBSERVE_MAX_TIME_MS = 60_000;

/** A live server to write a starting manifest for (`mcprely init --from-stdio/--from-url`). Give exactly one of `stdio` and `url`. */
export interface ManifestFromServerOptions {
  /** A command to run (split as a shell would, run without one) that speaks MCP over its stdin and stdout. */
  readonly stdio?: string;
  /** A Streamable HTTP endpoint (it gets the `headers`, whose values never reach the manifest). */
  readonly url?: string;
  readonly headers?: readonly AddedHeader[];
  /** The revision to speak (default: asked of an HTTP server, else the most deployed). */
  readonly specVersion?: ProbeRevision;
  /** The manifest's `$schema` comment (default: the installed package's schema). */
  readonly schemaPath?: string;
  /** Probe each tool read-only by its annotations and write what was seen as its claims (`--observe`). */
  readonly observe?: boolean;
  /** With `observe`: probe the tools that may change state too (`onPlan` names them before any is called). */
  readonly allowMutations?: boolean;
  /** With `observe`: each tool's probe budget (ms; default 60 000). */
  readonly maxTimeMs?: number;
  /** With `observe`: the clock whose day the observations' comments name. */
  readonly now?: () => Date;
  /** With `observe`: told which tools will be probed (and which of them may change state) before any is called. */
  readonly onPlan?: (plan: ObservationPlan) => void;
  /** With `observe`: told before each tool's probe starts. */
  readonly onTool?: (index: number, total: number, tool: string) => void;
  /** With `observe`: each probe check as it starts and ends, and the moment a tool stalls. */
  readonly onProbeEvent?: OnProbeEvent;
}

export type ManifestFromServerOutcome =
  | {
      readonly ok: true;
      /** The manifest's text (no secret the server echoed). */
      readonly manifest: string;
      /** The tools it has an operation for, in `tools/list` order. */
      readonly tools: readonly string[];
    }
  | {
      readonly ok: false;
      /** Why no manifest was written: the options, a server that does not answer as an MCP server (exit 2). */
      readonly problem: string;
    };

/**
 * A starting manifest from a live server's `tools/list` (every page): one operation per tool; with `observe`, each
 * tool read-only by its annotations probed and what the wire showed written as its claims, dated; every other
 * decision left open, marked DECIDE. Runs only the command or calls only the endpoint given. Prints nothing.
 */
export async function manifestFromServer(options: ManifestFromServerOptions): Promise<ManifestFromServerOutcome> {
  const target = probeTarget(options.stdio, options.url, { stdio: '--from-stdio', url: '--from-url' }, options.headers);
  if ('problem' in target) return { ok: false, problem: displayText(target.problem) };
  const secrets = 'url' in target ? secretsOf(target) : [];
  const listed = await listedTools(target, options.specVersion, secrets);
  if ('problem' in listed) return listed;
  const scaffold: ScaffoldInput = { ...listed.scaffold, schemaPath: options.schemaPath ?? SCHEMA_PATH };
  const manifest = options.observe === true ? await observed(scaffold, options) : scaffoldManifest(scaffold);
  // A secret the server echoed (in a description, say) stays out of a file meant to be committed.
  return { ok: true, manifest: redactSecrets(manifest, secrets), tools: scaffold.tools.map((tool) => tool.name) };
}

/** The server's name, revision, transport and tools, asked over one session (closed after). */
async function listedTools(
  target: ProbeTarget,
  specVersion: ProbeRevision | undefined,
  secrets: readonly string[],
): Promise<{ scaffold: Omit<ScaffoldInput, 'schemaPath'> } | { ok: false; problem: string }> {
  const started = performance.now();
  const clock = () => performance.now() - started;
  const log = new WireLog(clock);
  const connection: Connection = 'stdio' in target ? new StdioConnection(target.stdio, log, clock) : new HttpConnection(target, log, clock);
  const refused = (problem: string) => ({ ok: false as const, problem: displayText(redactSecrets(problem, secrets)) });
  try {
    const session = new ProbeSession(connection, log);
    const opened = await session.open(specVersion, LISTING_MS);
    if (!opened.ok) return refused(`could not talk to the server: ${opened.reason}`);
    const listed = await session.listTools(LISTING_MS);
    if ('unanswered' in listed) return refused(`tools/list was not answered: ${listed.unanswered}`);
    if ('error' in listed) return refused(`tools/list was refused: ${JSON.stringify(listed.error)}`);
    return {
      scaffold: {
        serverName: session.serverName ?? 'server',
        specVersion: session.revision,
        transport: connection.transport,
        // The endpoint without its credentials and query: the manifest is a file to commit.
        source: target.shown,
        tools: summariseTools(listed.tools),
      },
    };
  } finally {
    await connection.close();
  }
}

/** The manifest with what the probe saw of each tool it may call (`observe`). */
async function observed(scaffold: ScaffoldInput, options: ManifestFromServerOptions): Promise<string> {
  const plan = observationPlan(scaffold.tools, options.allowMutations === true);
  options.onPlan?.(plan);
  const observations = await observeTools(plan, {
    ...(options.stdio === undefined ? {} : { stdio: options.stdio }),
    ...(options.url === undefined ? {} : { url: options.url }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    specVersion: scaffold.specVersion,
    maxTimeMs: options.maxTimeMs ?? OBSERVE_MAX_TIME_MS,
    ...(options.onTool === undefined ? {} : { onTool: options.onTool }),
    ...(options.onProbeEvent === undefined ? {} : { onProbeEvent: options.onProbeEvent }),
  });
  return observedManifest({ ...scaffold, observations, day: (options.now ?? (() => new Date()))().toISOString().slice(0, 10) });
}
