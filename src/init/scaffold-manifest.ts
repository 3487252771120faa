import type { ToolSummary } from '../probe/tool-summary.js';
import type { SpecVersion } from '../spec/revisions.js';

/** Argument names that carry an idempotency key, by convention. */
const KEY_ARGUMENT =
  /^(idempotency[-_]?key|idem[-_]?key|request[-_]?id|dedup(e|lication)?[-_]?(key|id)|client[-_]?(request|operation)[-_]?id|operation[-_]?id)$/i;
/** A description that says the tool reports progress. */
const SAYS_PROGRESS = /\bprogress\b/i;

export interface ScaffoldInput {
  readonly serverName: string;
  readonly specVersion: SpecVersion;
  readonly transport: 'stdio' | 'streamable-http';
  readonly source: string;
  readonly tools: readonly ToolSummary[];
}

/**
 * A starting manifest from a server's tools/list: one operation per tool, the advertised annotations copied,
 * the side effect inferred from them, the tool's execution.taskSupport kept (task.used), a key argument
 * proposed when the input schema has one by a conventional name, progress marked when the description says
 * so — every inferred field listed in x-mcprely-unverified — and the policy left for the author (empty
 * timeouts; no retry or flow control), so mcprely lint reports each decision still to make.
 */
export function scaffoldManifest(input: ScaffoldInput): string {
  const lines = [
    '# yaml-language-server: $schema=./node_modules/mcprely/schemas/manifest.schema.json',
    `# Written by mcprely init from the tools/list of ${input.source}.`,
    '# Fields listed in x-mcprely-unverified were inferred from tool annotations, which are untrusted hints:',
    '# confirm each against the implementation, then remove it from the list. Run mcprely lint on this file:',
    '# it reports every decision still to make (timeouts, retry, idempotency, flow control, recovery).',
    'mcprely: 1',
    `specVersion: "${input.specVersion}"`,
    'server:',
    `  name: ${yamlString(input.serverName)}`,
    `  transports: [${input.transport}]`,
    'operations:',
  ];
  if (input.tools.length === 0) lines.push('  [] # TODO: the server listed no tools');
  for (const tool of input.tools) {
    const hints = tool.annotations ?? {};
    const inferred = hints.readOnlyHint === true ? 'none' : hints.idempotentHint === true ? 'idempotent' : 'mutation';
    const why =
      hints.readOnlyHint === true
        ? 'readOnlyHint: true'
        : hints.idempotentHint === true
          ? 'idempotentHint: true'
          : 'no read-only or idempotent hint';
    lines.push(`  - name: ${yamlString(tool.name)}`, '    method: tools/call');
    if (tool.description !== undefined && tool.description !== '') lines.push(`    description: ${yamlString(tool.description)}`);
    lines.push(`    sideEffect: ${inferred} # unverified: inferred from ${why}`);
    const advertised = Object.entries(hints).filter(([, value]) => typeof value === 'boolean');
    if (advertised.length > 0)
      lines.push(`    annotations: { ${advertised.map(([name, value]) => `${name}: ${String(value)}`).join(', ')} } # as advertised`);
    const unverified = ['sideEffect'];
    if (tool.taskSupport === 'required') lines.push('    task: { used: true } # as advertised: execution.taskSupport is required');
    else if (tool.taskSupport === 'optional')
      lines.push('    task: { used: false } # execution.taskSupport is optional: decide whether to run it as a task');
    const key = inferred === 'none' ? undefined : tool.arguments?.find((name) => KEY_ARGUMENT.test(name));
    if (key !== undefined) {
      const required = (tool.required ?? []).includes(key);
      lines.push(
        `    idempotency: { keyArgument: ${yamlString(key)} } # unverified: proposed from the input schema${required ? '' : ' (where it is optional)'}`,
      );
      unverified.push('idempotency.keyArgument');
    }
    if (SAYS_PROGRESS.test(tool.description ?? '')) {
      lines.push('    progress: { emits: true } # unverified: its description says it reports progress');
      unverified.push('progress.emits');
    }
    lines.push(`    x-mcprely-unverified: [${unverified.join(', ')}]`, '    timeouts: {} # TODO: idleMs and maxMs');
  }
  return `${lines.join('\n')}\n`;
}

/** A YAML scalar that reads back as exactly this string. */
function yamlString(text: string): string {
  return /^[A-Za-z_][\w.-]*$/.test(text) && !/^(true|false|null|yes|no|on|off|~)$/i.test(text) ? text : JSON.stringify(text);
}
