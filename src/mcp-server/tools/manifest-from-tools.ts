import { manifestFromTools } from '../../api/manifest-from-tools.js';
import { MAX_MANIFEST_BYTES } from '../../document/limits.js';
import { TRANSPORTS, type Transport } from '../../protocol/transports.js';
import { isSpecVersion, SPEC_VERSIONS } from '../../spec/revisions.js';
import { objectSchema, STRING, STRINGS } from '../json-schema.js';
import { type McpTool, toolError } from '../mcp-tool.js';
import { isProblem, optionalString } from '../tool-arguments.js';

/** The tools/list argument: an object or array as given, or JSON text of one. */
function toolsListOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  // A tools/list given as JSON text is bounded as a manifest is.
  if (value.length > MAX_MANIFEST_BYTES) return { problem: `toolsList is at most ${MAX_MANIFEST_BYTES} characters` };
  try {
    return JSON.parse(value) as unknown;
  } catch (error) {
    return { problem: `toolsList is not JSON (${(error as Error).message}): give the tools/list result as an object or its JSON text` };
  }
}

/** `manifest_from_tools`: a starting manifest from a tools/list result, as `mcprely init --from-stdio` writes one. */
export const manifestFromToolsTool: McpTool = {
  name: 'manifest_from_tools',
  title: 'Start an mcprely manifest from a tools/list result',
  description:
    "A starting mcprely manifest from an MCP server's tools/list result: one operation per tool, what the annotations " +
    'suggest marked unverified, and each reliability decision (timeouts, retry, idempotency, flow control) left for lint_manifest to ask for.',
  inputSchema: {
    type: 'object',
    properties: {
      toolsList: {
        type: ['object', 'array', 'string'],
        description: 'the tools/list result ({"tools": [...]}), its tools array, or either as JSON text',
      },
      serverName: { type: 'string', description: "the server's name in the manifest" },
      specVersion: { enum: [...SPEC_VERSIONS] },
      transport: { enum: [...TRANSPORTS] },
    },
    required: ['toolsList'],
    additionalProperties: false,
  },
  outputSchema: objectSchema({ manifest: { ...STRING, description: 'the manifest, YAML' }, tools: STRINGS }),
  async run(args) {
    const toolsList = toolsListOf(args['toolsList']);
    if (toolsList === undefined) return toolError('give toolsList, the tools/list result');
    if (isProblem(toolsList)) return toolError(toolsList.problem);
    const serverName = optionalString(args, 'serverName');
    const specVersion = optionalString(args, 'specVersion');
    const transport = optionalString(args, 'transport');
    for (const read of [serverName, specVersion, transport]) if (isProblem(read)) return toolError(read.problem);
    if (typeof specVersion === 'string' && !isSpecVersion(specVersion))
      return toolError(`the argument specVersion is one of ${SPEC_VERSIONS.join(', ')}`);
    if (typeof transport === 'string' && !(TRANSPORTS as readonly string[]).includes(transport))
      return toolError(`the argument transport is one of ${TRANSPORTS.join(', ')}`);
    const outcome = manifestFromTools({
      toolsList,
      ...(typeof serverName === 'string' ? { serverName } : {}),
      ...(isSpecVersion(specVersion) ? { specVersion } : {}),
      ...(typeof transport === 'string' ? { transport: transport as Transport } : {}),
    });
    if (!outcome.ok) return toolError(outcome.problem);
    return { ok: true, structured: { manifest: outcome.manifest, tools: [...outcome.tools] }, text: outcome.manifest };
  },
};
