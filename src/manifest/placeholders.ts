/**
 * The values `mcprely init --template` writes for its author to replace, and the marker of a decision left
 * open. Shared by the template (which writes them) and the rule `manifest-placeholders` (which reports each
 * until it is replaced), so the two cannot drift apart.
 */
export const TEMPLATE_PLACEHOLDERS = {
  serverName: 'my-server',
  toolName: 'my_tool',
  description: 'What the tool does, in one sentence.',
} as const;

/** The marker of a decision the template leaves to its author; mcprely lint reports each until it is made. */
export const DECIDE = 'DECIDE';

/** What a value at `path` stands in for, when it is one of the template's placeholders (or a DECIDE value). */
export function placeholderAt(path: readonly (string | number)[], value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value === DECIDE || value.startsWith(`${DECIDE}:`) || value.startsWith(`${DECIDE} `)) return 'a decision marked DECIDE';
  const [head, index, field, ...rest] = path;
  if (rest.length > 0) return undefined;
  if (head === 'server' && index === 'name' && field === undefined && value === TEMPLATE_PLACEHOLDERS.serverName)
    return "the server's name";
  if (head === 'operations' && typeof index === 'number') {
    if (field === 'name' && value === TEMPLATE_PLACEHOLDERS.toolName) return "the tool's name";
    if (field === 'description' && value === TEMPLATE_PLACEHOLDERS.description) return "the tool's description";
  }
  return undefined;
}
