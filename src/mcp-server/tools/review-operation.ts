import { review } from '../../api/review.js';
import type { Finding } from '../../findings/finding.js';
import { TRANSPORTS, type Transport } from '../../protocol/transports.js';
import { renderReviewMarkdown } from '../../review/render-review-markdown.js';
import { isSpecVersion, MOST_DEPLOYED_REVISION, SPEC_VERSIONS } from '../../spec/revisions.js';
import { findingLine, findingSummary } from '../finding-summary.js';
import { MANIFEST_PROPERTIES, type ManifestArgument, manifestArgument, TEXT_MANIFEST } from '../manifest-argument.js';
import { manifestProblems } from '../manifest-problems.js';
import { type McpTool, type ToolOutcome, toolError } from '../mcp-tool.js';
import { operationManifest } from '../operation-manifest.js';
import { REVIEW_OUTPUT_SCHEMA, reviewSummary } from '../review-summary.js';
import { isProblem, optionalString } from '../tool-arguments.js';

/** What to review: the manifest's name and bytes, the operation, and where findings are placed back. */
interface ReviewInput {
  readonly file: string;
  readonly content: Uint8Array;
  readonly operation?: string;
  readonly placeBack: (finding: Finding) => Finding;
}

const unchanged = (finding: Finding) => finding;

/** The transports argument: the ones named (each known), else both. */
function transportsOf(value: unknown): readonly Transport[] | { readonly problem: string } {
  if (value === undefined || value === null) return TRANSPORTS;
  if (!Array.isArray(value) || value.length === 0 || !value.every((one) => (TRANSPORTS as readonly unknown[]).includes(one)))
    return { problem: `the argument transports lists one or more of ${TRANSPORTS.join(', ')}` };
  return value as Transport[];
}

/** The arguments read: one operation's YAML made a manifest, or a manifest and (optionally) one of its operations. */
function reviewInput(args: Readonly<Record<string, unknown>>, folder: string): ReviewInput | { readonly problem: string } {
  const operationYaml = optionalString(args, 'operationYaml');
  const operation = optionalString(args, 'operation');
  const specVersion = optionalString(args, 'specVersion');
  for (const read of [operationYaml, operation, specVersion]) if (isProblem(read)) return read;
  if (typeof operationYaml !== 'string') {
    const input: ManifestArgument = manifestArgument(args, folder);
    if (!input.ok) return { problem: `${input.message}; or give operationYaml, one operation's YAML` };
    return { file: input.file, content: input.content, ...(typeof operation === 'string' ? { operation } : {}), placeBack: unchanged };
  }
  if (args['manifest'] !== undefined || args['path'] !== undefined)
    return { problem: 'give operationYaml (one operation) or a manifest (manifest or path), not both' };
  if (specVersion !== undefined && !isSpecVersion(specVersion))
    return { problem: `the argument specVersion is one of ${SPEC_VERSIONS.join(', ')}` };
  const transports = transportsOf(args['transports']);
  if (isProblem(transports)) return transports;
  const wrapped = operationManifest(operationYaml, isSpecVersion(specVersion) ? specVersion : MOST_DEPLOYED_REVISION, transports);
  return { file: TEXT_MANIFEST, content: new TextEncoder().encode(wrapped.text), placeBack: wrapped.placeBack };
}

/** `review_operation`: `mcprely review` of one operation (or a manifest), its sections as data. */
export const reviewOperationTool: McpTool = {
  name: 'review_operation',
  title: 'Review the reliability of an MCP operation',
  description:
    "Reviews one operation of an MCP server: give the operation's YAML (operationYaml, as written under operations: in " +
    'an mcprely manifest), or a manifest (its text, or a path under the working folder) and the operation name. Runs ' +
    'its failure fixtures on the reference implementation and returns the race table per transport, the retry class, ' +
    'the idempotency boundary, flow control, the reconnect plan and the verdict. Reports progress per fixture; stops on cancellation.',
  inputSchema: {
    type: 'object',
    properties: {
      operationYaml: { type: 'string', description: "one operation's YAML (name, method, sideEffect, timeouts, retry, …)" },
      ...MANIFEST_PROPERTIES,
      operation: { type: 'string', description: 'with manifest or path: the operation to review (default: every one)' },
      specVersion: { enum: [...SPEC_VERSIONS], description: `with operationYaml: the revision (default ${MOST_DEPLOYED_REVISION})` },
      transports: { type: 'array', items: { enum: [...TRANSPORTS] }, description: 'with operationYaml: the transports (default both)' },
    },
    additionalProperties: false,
  },
  outputSchema: REVIEW_OUTPUT_SCHEMA,
  async run(args, context): Promise<ToolOutcome> {
    const input = reviewInput(args, context.workingFolder);
    if (isProblem(input)) return toolError(input.problem);
    const outcome = await review({
      manifest: input.file,
      text: input.content,
      config: false,
      signal: context.signal,
      ...(input.operation === undefined ? {} : { operation: input.operation }),
      onProgress: (index, total, label) => context.progress(index, total, `fixture ${index + 1} of ${total}: ${label}`),
    });
    if (!outcome.ok) {
      const problems = (await manifestProblems(input.file, input.content, context.workingFolder)).map(input.placeBack);
      if (problems.length === 0) return toolError(outcome.problem.trim());
      return {
        ok: true,
        structured: { file: input.file, productionReady: false, operations: [], otherFindings: [], problems: problems.map(findingSummary) },
        text: [`${input.file} cannot be reviewed:`, ...problems.map(findingLine)].join('\n'),
      };
    }
    const placed = {
      ...outcome.review,
      operations: outcome.review.operations.map((one) => ({ ...one, findings: one.findings.map(input.placeBack) })),
      otherFindings: outcome.review.otherFindings.map(input.placeBack),
    };
    return { ok: true, structured: reviewSummary(placed), text: renderReviewMarkdown(placed) };
  },
};
