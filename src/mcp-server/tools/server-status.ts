import { COUNT, objectSchema } from '../json-schema.js';
import type { McpTool } from '../mcp-tool.js';

/**
 * `server_status`: how many tool calls the server is running. A client that cancelled a review can see that its
 * work stopped (where the cancellation is a closed stream, nothing on the wire shows it): `mcprely probe` asks it
 * through the manifest's `probe.workStatus`.
 */
export const serverStatusTool: McpTool = {
  name: 'server_status',
  title: 'How many calls mcprely mcp is running',
  description:
    'How many tool calls this server is running now, besides this one (every session): after cancelling a review_operation, ' +
    'the count shows that its work stopped.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: objectSchema({ runningCalls: COUNT }),
  async run(_args, context) {
    const runningCalls = Math.max(0, context.otherCallsRunning());
    return { ok: true, structured: { runningCalls }, text: JSON.stringify({ runningCalls }) };
  },
};
