import { fixtures } from '../../api/fixtures.js';
import { FINDING_SCHEMA, findingLine, findingSummary } from '../finding-summary.js';
import { MANIFEST_PROPERTIES, manifestArgument } from '../manifest-argument.js';
import { manifestProblems } from '../manifest-problems.js';
import { arrayOf, objectSchema, STRING } from '../json-schema.js';
import { type McpTool, toolError } from '../mcp-tool.js';
import { isProblem, optionalString } from '../tool-arguments.js';

/** `generate_fixtures`: `mcprely fixtures` of a manifest (or one operation), the fixtures as data instead of files. */
export const generateFixturesTool: McpTool = {
  name: 'generate_fixtures',
  title: 'Generate failure fixtures for an MCP manifest',
  description:
    'The failure fixtures of an mcprely manifest (its text, or a path under the working folder), or of one of its ' +
    'operations: each fixture a scripted race (cancel before completion, a timeout then a late response, a duplicate ' +
    'mutation, a slow consumer, a reconnect …) with the steps to play and what must be observed, as mcprely fixtures writes them.',
  inputSchema: {
    type: 'object',
    properties: { ...MANIFEST_PROPERTIES, operation: { type: 'string', description: "this operation's fixtures only" } },
    additionalProperties: false,
  },
  outputSchema: objectSchema({
    file: STRING,
    fixtures: arrayOf(
      objectSchema({
        id: STRING,
        kind: STRING,
        title: STRING,
        operation: STRING,
        transport: STRING,
        specVersion: STRING,
        steps: { type: 'array' },
        expect: { type: 'array' },
      }),
    ),
    problems: { ...arrayOf(FINDING_SCHEMA), description: 'why the manifest could not be used, at line and column' },
  }),
  async run(args, context) {
    const input = manifestArgument(args, context.workingFolder);
    if (!input.ok) return toolError(input.message);
    const operation = optionalString(args, 'operation');
    if (isProblem(operation)) return toolError(operation.problem);
    const outcome = fixtures({ manifest: input.file, text: input.content, ...(operation === undefined ? {} : { operation }) });
    if (!outcome.ok) {
      const problems = await manifestProblems(input.file, input.content, context.workingFolder);
      if (problems.length === 0) return toolError(outcome.problem.trim());
      return {
        ok: true,
        structured: { file: input.file, fixtures: [], problems: problems.map(findingSummary) },
        text: [`${input.file} cannot be made into fixtures:`, ...problems.map(findingLine)].join('\n'),
      };
    }
    context.progress(outcome.fixtures.length, outcome.fixtures.length, `${outcome.fixtures.length} fixtures generated`);
    return {
      ok: true,
      structured: { file: input.file, fixtures: outcome.fixtures.map((fixture) => ({ ...fixture })), problems: [] },
      text: [
        `${outcome.fixtures.length} fixtures of ${input.file}:`,
        ...outcome.fixtures.map((fixture) => `${fixture.id} (${fixture.transport}): ${fixture.title}`),
      ].join('\n'),
    };
  },
};
