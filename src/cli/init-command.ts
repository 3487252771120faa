import { lstatSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { manifestFromServer, OBSERVE_MAX_TIME_MS } from '../api/manifest-from-server.js';
import type { ProbeRevision } from '../probe/connection.js';
import type { AddedHeader } from '../probe/request-headers.js';
import { SCHEMA_PATH, templateManifest } from '../init/template.js';
import { SPEC_VERSIONS } from '../spec/revisions.js';
import { displayText } from '../text/display-text.js';
import { durationWords } from '../text/duration.js';
import { plural } from '../text/plural.js';
import { writeOutputFile } from '../workspace/output-files.js';
import { probeReporter } from './probe-lines.js';

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
  /** With observe: no line on standard error as each probe check starts and ends (`--quiet`). */
  quiet?: boolean;
}): Promise<number> {
  if (options.output !== undefined && options.force !== true && exists(options.output)) {
    process.stderr.write(`error: ${displayText(options.output)} already exists; give --force to overwrite it\n`);
    return 2;
  }
  const schemaPath = options.output === undefined ? SCHEMA_PATH : schemaPathFrom(options.output, process.cwd());
  if (
    options.observe === true
      ? options.template !== undefined
      : options.allowMutations === true || options.maxTimeMs !== undefined || options.quiet === true
  ) {
    process.stderr.write(
      'error: --observe probes the tools of a server (--from-stdio/--from-url, not --template); --allow-mutations, --max-time and --quiet go with it\n',
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
  const maxTimeMs = options.maxTimeMs ?? OBSERVE_MAX_TIME_MS;
  const probeLines = probeReporter(options.quiet === true);
  const outcome = await manifestFromServer({
    ...(options.stdio === undefined ? {} : { stdio: options.stdio }),
    ...(options.url === undefined ? {} : { url: options.url }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.specVersion === undefined ? {} : { specVersion: options.specVersion }),
    schemaPath,
    ...(options.observe === true ? { observe: true, maxTimeMs } : {}),
    ...(options.allowMutations === true ? { allowMutations: true } : {}),
    ...(options.now === undefined ? {} : { now: options.now }),
    onPlan: (plan) => {
      if (plan.mayChangeState.length > 0)
        process.stderr.write(`--allow-mutations: calling tools that may change state: ${displayText(plan.mayChangeState.join(', '))}\n`);
    },
    onTool: (index, total, tool) =>
      process.stderr.write(`probing ${displayText(tool)} (${index + 1} of ${total}), up to ${durationWords(maxTimeMs)}\n`),
    ...(probeLines.onProbeEvent === undefined ? {} : { onProbeEvent: probeLines.onProbeEvent }),
  });
  probeLines.done();
  if (!outcome.ok) {
    process.stderr.write(`error: ${outcome.problem}\n`);
    return 2;
  }
  if (options.output === undefined) process.stdout.write(outcome.manifest);
  else {
    writeOutputFile(options.output, outcome.manifest, 'the manifest');
    process.stderr.write(
      `wrote ${options.output}: ${plural(outcome.tools.length, 'operation')}; run mcprely lint ${options.output} for what is left to decide\n`,
    );
  }
  return 0;
}

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
