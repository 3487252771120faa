import { lint } from '../../api/lint.js';
import { FINDING_SCHEMA, findingLine, findingSummary } from '../finding-summary.js';
import { MANIFEST_PROPERTIES, manifestArgument } from '../manifest-argument.js';
import { arrayOf, BOOLEAN, COUNT, objectSchema, STRING } from '../json-schema.js';
import { type McpTool, toolError } from '../mcp-tool.js';

/** `lint_manifest`: `mcprely lint` of one manifest, its findings as data. */
export const lintManifestTool: McpTool = {
  name: 'lint_manifest',
  title: 'Lint an MCP reliability manifest',
  description:
    "Lints an mcprely manifest (an MCP server's operations with their timeouts, retry, idempotency, flow control and " +
    'recovery): each finding with its rule id, severity, message, line, column and fix. Give the YAML text, or a path ' +
    'under the working folder. A manifest that cannot be read gives its problems the same way.',
  inputSchema: { type: 'object', properties: MANIFEST_PROPERTIES, additionalProperties: false },
  outputSchema: objectSchema({
    file: STRING,
    errors: COUNT,
    warnings: COUNT,
    infos: COUNT,
    usable: { ...BOOLEAN, description: 'false when the manifest could not be read as one (its problems are the findings)' },
    findings: arrayOf(FINDING_SCHEMA),
  }),
  async run(args, context) {
    const input = manifestArgument(args, context.workingFolder);
    if (!input.ok) return toolError(input.message);
    const outcome = await lint({
      paths: [],
      text: { file: input.file, content: input.content },
      config: false,
      cwd: context.workingFolder,
    });
    if (!outcome.ok) return toolError(outcome.problem);
    const report = outcome.result.files[0];
    const findings = (report?.findings ?? []).filter((finding) => finding.suppression === undefined);
    const { errors, warnings, infos } = outcome.result.summary;
    const head = `${input.file}: ${errors} errors, ${warnings} warnings, ${infos} notes`;
    return {
      ok: true,
      structured: {
        file: input.file,
        errors,
        warnings,
        infos,
        usable: report?.inputError !== true,
        findings: findings.map(findingSummary),
      },
      text: [head, ...findings.map(findingLine)].join('\n'),
    };
  },
};
