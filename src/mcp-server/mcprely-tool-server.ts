import { ERROR_CODES } from '../protocol/error-codes.js';
import { asRecord } from '../protocol/message-guards.js';
import { errorReply, resultReply } from '../mcp-serving/json-rpc-replies.js';
import { type CallRequest, progressToken, type Reply, type ToolServer } from '../mcp-serving/served-message.js';
import { callToolResult, type McpTool, toolError, toolListing } from './mcp-tool.js';
import { MCP_TOOLS, mcpToolNamed } from './mcp-tools.js';

/** A call of one of mcprely's tools, to start. */
export interface McpCallRequest extends CallRequest {
  readonly tool: McpTool;
}

/**
 * The caching hints of tools/list and discovery, where the revision has them: the tools never change while the
 * server runs and are the same for every caller.
 */
const CACHE_HINTS = { ttlMs: 3_600_000, cacheScope: 'public' } as const;

/** `mcprely mcp`'s own part of serving a message: who it is, its tools, and a tools/call of one. */
export function mcprelyToolServer(version: string): ToolServer<McpCallRequest> {
  return {
    info: { name: 'mcprely', version },
    capabilities: { tools: {} },
    cacheHints: CACHE_HINTS,
    tools: () => MCP_TOOLS.map(toolListing),
    call(id, params): Reply | McpCallRequest {
      const tool = mcpToolNamed(params['name']);
      if (tool === undefined)
        return {
          kind: 'reply',
          message: errorReply(
            id,
            ERROR_CODES.invalidParams,
            `Unknown tool: ${JSON.stringify(params['name'] ?? null)}; mcprely's tools are ${MCP_TOOLS.map((one) => one.name).join(', ')}`,
          ),
        };
      const given = params['arguments'];
      const args = given === undefined || given === null ? {} : asRecord(given);
      if (args === undefined)
        return { kind: 'reply', message: resultReply(id, callToolResult(toolError(`the arguments of ${tool.name} are an object`))) };
      const token = progressToken(params);
      return { kind: 'call', id, tool, args, ...(token === undefined ? {} : { token }) };
    },
  };
}
