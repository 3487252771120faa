import { catalog } from '../../api/catalog.js';
import { objectSchema, STRING } from '../json-schema.js';
import { type McpTool, toolError } from '../mcp-tool.js';
import { isProblem, optionalString } from '../tool-arguments.js';

/** `explain_rule`: a check's page, as `mcprely rules <id>` prints it. */
export const explainRuleTool: McpTool = {
  name: 'explain_rule',
  title: 'Explain an mcprely rule',
  description:
    "The page of an mcprely check by its id (a lint rule such as a finding's ruleId, an input or drift rule, a probe " +
    'check, a session judge, a probe-client scenario): what it checks, why (its basis in the MCP specification), how to fix it, examples.',
  inputSchema: {
    type: 'object',
    properties: { id: { type: 'string', description: "the rule's id, as a finding's ruleId names it" } },
    required: ['id'],
    additionalProperties: false,
  },
  outputSchema: objectSchema(
    {
      id: STRING,
      kind: STRING,
      party: STRING,
      severity: { enum: ['error', 'warn', 'info'] },
      description: STRING,
      basis: STRING,
      page: { ...STRING, description: 'the rule page, markdown' },
    },
    ['id', 'kind', 'party', 'description', 'basis', 'page'],
  ),
  async run(args) {
    const id = optionalString(args, 'id');
    if (isProblem(id)) return toolError(id.problem);
    if (id === undefined || id.trim() === '') return toolError('give id, a rule id (a finding names it as ruleId)');
    const outcome = await catalog({ config: false });
    if (!outcome.ok) return toolError(outcome.problem);
    const entry = outcome.entries.find((one) => one.id === id.trim());
    if (entry === undefined) {
      const words = id
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((word) => word.length > 2);
      const near = outcome.entries.filter((one) => words.some((word) => one.id.includes(word))).slice(0, 8);
      const hint = near.length === 0 ? 'a finding names its rule as ruleId' : `did you mean ${near.map((one) => one.id).join(', ')}?`;
      return toolError(`no rule has the id ${JSON.stringify(id)}: ${hint}`);
    }
    const page = entry.page();
    return {
      ok: true,
      structured: {
        id: entry.id,
        kind: entry.kind,
        party: entry.party,
        ...(entry.severity === undefined ? {} : { severity: entry.severity }),
        description: entry.description,
        basis: entry.basis,
        page,
      },
      text: page,
    };
  },
};
