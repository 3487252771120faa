import { scaffoldManifest } from '../init/scaffold-manifest.js';
import { summariseTools } from '../probe/tool-summary.js';
import { isRecord } from '../protocol/message-guards.js';
import type { Transport } from '../protocol/transports.js';
import { MOST_DEPLOYED_REVISION, type SpecVersion } from '../spec/revisions.js';

/** A server's `tools/list` result, and what `mcprely init` would otherwise learn by connecting. */
export interface ManifestFromToolsOptions {
  /** The `tools/list` result (`{ tools: [...] }`) or its `tools` array, as parsed JSON (untrusted). */
  readonly toolsList: unknown;
  /** The server's name in the manifest (default `my-server`). */
  readonly serverName?: string;
  /** The revision the server speaks (default: the most deployed). */
  readonly specVersion?: SpecVersion;
  /** The transport the manifest declares (default stdio). */
  readonly transport?: Transport;
  /** Where the tools came from, for the manifest's head comment. */
  readonly source?: string;
}

export type ManifestFromToolsOutcome =
  | {
      readonly ok: true;
      /** The manifest's text, as `mcprely init --from-stdio` writes it. */
      readonly manifest: string;
      /** The tools it has an operation for. */
      readonly tools: readonly string[];
    }
  | { readonly ok: false; readonly problem: string };

/**
 * A starting manifest from a `tools/list` result, as `mcprely init` writes one from a live server: one operation per
 * tool, what the annotations suggest marked unverified, each policy decision left for `mcprely lint` to ask for.
 */
export function manifestFromTools(options: ManifestFromToolsOptions): ManifestFromToolsOutcome {
  const list = isRecord(options.toolsList) ? options.toolsList['tools'] : options.toolsList;
  if (!Array.isArray(list))
    return { ok: false, problem: 'a tools/list result is an object with a tools array ({"tools": [{"name": …}]}), or that array' };
  const tools = summariseTools(list);
  if (list.length > 0 && tools.length === 0) return { ok: false, problem: 'no entry of the tools array is a tool with a name' };
  const manifest = scaffoldManifest({
    serverName: options.serverName ?? 'my-server',
    specVersion: options.specVersion ?? MOST_DEPLOYED_REVISION,
    transport: options.transport ?? 'stdio',
    source: options.source ?? 'a tools/list result',
    tools,
  });
  return { ok: true, manifest, tools: tools.map((tool) => tool.name) };
}
