import { type ScaffoldInput, scaffoldManifest } from '../init/scaffold-manifest.js';
import { observationPlan } from '../init/observation-plan.js';
import { observedManifest } from '../init/observed-manifest.js';
import { observeTools } from '../api/observe-tools.js';
import { lstatSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { SCHEMA_PATH, templateManifest } from '../init/template.js';
import { SPEC_VERSIONS } from '../spec/revisions.js';
import { summariseTools } from '../probe/tool-summary.js';
import type { Connection, ProbeRevision } from '../probe/connection.js';
import { HttpConnection } from '../probe/http-connection.js';
import { ProbeSession } from '../probe/session.js';
import { StdioConnection } from '../probe/stdio-connection.js';
import { WireLog } from '../probe/wire-log.js';
import { probeTarget } from '../api/probe-target.js';
import { type AddedHeader, redactSecrets, secretsOf } from '../probe/request-headers.js';
import { displayText } from '../text/display-text.js';
import { writeOutputFile } from '../workspace/output-files.js';
import { plural } from '../text/plural.js';
import { METHODS } from '../protocol/methods.js';

/** `mcprely init --from-stdio cmd | --from-url url`: a starting manifest from the server's tools/list. */
export async function runInit(options: {
  template?: 'stdio' | 'streamable-http' | 'both';
  stdio?: string;
  url?: string;
  /** Headers added to every request to the endpoint (`--header`). */
  headers?: readonly AddedHeader[];
  specVersion?: ProbeRevision;
  output?: string;
  /** Overwrite an existing --output file (without it, an existing file is refused and left as it is). */
  force?: boolean;
  /** Probe each read-only tool and write what was seen as its claims (`--observe`). */
  observe?: boolean;
  /** With observe: probe the tools that may change state too, named on stderr first. */
  allowMutations?: boolean;
  /** With observe: each tool's probe budget (ms). */
  maxTimeMs?: number;
  /** With observe: the clock whose day the comments name. */
  now?: () => Date;
}): Promise<number> {
  if (options.output !== undefined && options.force !== true && exists(options.output)) {
    process.stderr.write(`error: ${displayText(options.output)} already exists; give --force to overwrite it\n`);
    return 2;
  }
  const schemaPath = options.output === undefined ? SCHEMA_PATH : schemaPathFrom(options.output, process.cwd());
  if (options.observe === true ? options.template !== undefined : options.allowMutations === true || options.maxTimeMs !== undefined) {
    process.stderr.write(
      'error: --observe probes the tools of a server (--from-stdio/--from-url, not --template); --allow-mutations and --max-time go with it\n',
    );
    return 2;
  }
  if (options.template !== undefined) {
    if (options.stdio !== undefined || options.url !== undefined || options.headers !== undefined) {
      process.stderr.write('error: --template writes without a server; give it, or --from-stdio/--from-url (and --header), not both\n');
      return 2;
    }
    const transports = options.template === 'both' ? (['stdio', 'streamable-http'] as const) : ([options.template] as const);
    const text = templateManifest({ specVersion: options.specVersion ?? SPEC_VERSIONS[SPEC_VERSIONS.length - 1]!, transports, schemaPath });
    if (options.output === undefined) process.stdout.write(text);
    else {
      writeOutputFile(options.output, text, 'the manifest');
      process.stderr.write(`wrote ${options.output}; run mcprely lint ${options.output}: it reports each decision marked DECIDE\n`);
    }
    return 0;
  }
  if (options.stdio === undefined && options.url === undefined) {
    process.stderr.write(
      'error: give a server to ask (--from-stdio "<command>" or --from-url <endpoint>), ' +
        'or --template to write a commented manifest without one\n',
    );
    return 2;
  }
  const target = probeTarget(options.stdio, options.url, { stdio: '--from-stdio', url: '--from-url' }, options.headers);
  if ('problem' in target) {
    process.stderr.write(`error: ${displayText(target.problem)}\n`);
    return 2;
  }
  const secrets = 'url' in target ? secretsOf(target) : [];
  const started = performance.now();
  const clock = () => performance.now() - started;
  const log = new WireLog(clock);
  const connection: Connection = 'stdio' in target ? new StdioConnection(target.stdio, log, clock) : new HttpConnection(target, log, clock);
  let scaffold: ScaffoldInput;
  try {
    const session = new ProbeSession(connection, log);
    const opened = await session.open(options.specVersion, 10_000);
    if (!opened.ok) {
      process.stderr.write(`error: could not talk to the server: ${displayText(redactSecrets(opened.reason, secrets))}\n`);
      return 2;
    }
    const tools: unknown[] = [];
    let serverName = 'server';
    let cursor: string | undefined;
    for (let page = 0; page < 50; page++) {
      const call = await session.request(METHODS.toolsList, cursor === undefined ? {} : { cursor }, 10_000, 'init');
      const answer = call.inbox.response;
      const result = answer?.message['result'] as
        | { tools?: unknown[]; nextCursor?: string; _meta?: Record<string, { name?: string }> }
        | undefined;
      if (result === undefined) {
        process.stderr.write(
          redactSecrets(
            `error: tools/list was not answered${answer?.message['error'] ? `: ${JSON.stringify(answer.message['error'])}` : ''}\n`,
            secrets,
          ),
        );
        return 2;
      }
      if (Array.isArray(result.tools)) for (const tool of result.tools) tools.push(tool);
      serverName = result._meta?.['io.modelcontextprotocol/serverInfo']?.name ?? serverName;
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    const initialize = log.entries.find((entry) => entry.direction === '←' && entry.text.includes('"serverInfo"'));
    const named = initialize === undefined ? undefined : /"serverInfo":\{"name":"([^"]+)"/.exec(initialize.text)?.[1];
    scaffold = {
      serverName: named ?? serverName,
      specVersion: session.revision,
      transport: connection.transport,
      // The endpoint without its credentials and query: the manifest is a file to commit.
      source: target.shown,
      tools: summariseTools(tools),
      schemaPath,
    };
  } finally {
    await connection.close();
  }
  const manifest = options.observe === true ? await observed(scaffold, options) : scaffoldManifest(scaffold);
  // A secret the server echoed (in a description, say) stays out of a file meant to be committed.
  const text = redactSecrets(manifest, secrets);
  if (options.output === undefined) process.stdout.write(text);
  else {
    writeOutputFile(options.output, text, 'the manifest');
    process.stderr.write(
      `wrote ${options.output}: ${plural(scaffold.tools.length, 'operation')}; run mcprely lint ${options.output} for what is left to decide\n`,
    );
  }
  return 0;
}

/**
 * The manifest with what the probe saw of each tool it may call (init --observe): the tools that may change state
 * named on stderr before any is called, each tool announced as its probe starts.
 */
async function observed(
  scaffold: ScaffoldInput,
  options: {
    stdio?: string;
    url?: string;
    headers?: readonly AddedHeader[];
    allowMutations?: boolean;
    maxTimeMs?: number;
    now?: () => Date;
  },
): Promise<string> {
  const plan = observationPlan(scaffold.tools, options.allowMutations === true);
  if (plan.mayChangeState.length > 0)
    process.stderr.write(`--allow-mutations: calling tools that may change state: ${displayText(plan.mayChangeState.join(', '))}\n`);
  const maxTimeMs = options.maxTimeMs ?? OBSERVE_MAX_TIME_MS;
  const observations = await observeTools(plan, {
    ...(options.stdio === undefined ? {} : { stdio: options.stdio }),
    ...(options.url === undefined ? {} : { url: options.url }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    specVersion: scaffold.specVersion,
    maxTimeMs,
    onTool: (index, total, tool) =>
      process.stderr.write(`probing ${displayText(tool)} (${index + 1} of ${total}), up to ${Math.round(maxTimeMs / 1000)} s\n`),
  });
  return observedManifest({ ...scaffold, observations, day: (options.now ?? (() => new Date()))().toISOString().slice(0, 10) });
}

/** Each tool's probe budget under --observe by default: a run of up to 24 s (two fifths), cancelled and timed out. */
const OBSERVE_MAX_TIME_MS = 60_000;

/** Whether anything (a file, a folder, a dangling link) is at `path`. */
function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The installed package's manifest schema as seen from the folder of the file written: node_modules is taken
 * to be in the working directory, so `-o manifests/mcp.yaml` gets `../node_modules/mcprely/schemas/manifest.schema.json`.
 */
export function schemaPathFrom(output: string, cwd: string): string {
  const path = relative(dirname(resolve(cwd, output)), resolve(cwd, SCHEMA_PATH))
    .split(sep)
    .join('/');
  return path.startsWith('../') ? path : `./${path}`;
}
