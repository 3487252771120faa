import type { McpTool } from './mcp-tool.js';
import { explainRuleTool } from './tools/explain-rule.js';
import { generateFixturesTool } from './tools/generate-fixtures.js';
import { lintManifestTool } from './tools/lint-manifest.js';
import { manifestFromToolsTool } from './tools/manifest-from-tools.js';
import { reviewOperationTool } from './tools/review-operation.js';
import { serverStatusTool } from './tools/server-status.js';

/** Every tool of `mcprely mcp`, in the order `tools/list` gives them. */
export const MCP_TOOLS: readonly McpTool[] = [
  lintManifestTool,
  reviewOperationTool,
  generateFixturesTool,
  explainRuleTool,
  manifestFromToolsTool,
  serverStatusTool,
];

export function mcpToolNamed(name: unknown): McpTool | undefined {
  return MCP_TOOLS.find((tool) => tool.name === name);
}
