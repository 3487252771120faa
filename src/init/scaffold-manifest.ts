import type { SpecVersion } from '../spec/revisions.js';

export interface ListedTool {
  readonly name: string;
  readonly description?: string;
  readonly annotations?: {
    readonly readOnlyHint?: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
    readonly openWorldHint?: boolean;
  };
}

export interface ScaffoldInput {
  readonly serverName: string;
  readonly specVersion: SpecVersion;
  readonly transport: 'stdio' | 'streamable-http';
  readonly source: string;
  readonly tools: readonly ListedTool[];
}

/**
 * A starting manifest from a server's tools/list: one operation per tool, the advertised annotations copied,
 * the side effect inferred from them but listed in x-mcprely-unverified, and the policy left for the author
 * (empty timeouts; no retry, idempotency or flow control), so mcprely lint reports each decision still to make.
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
    lines.push('    x-mcprely-unverified: [sideEffect]', '    timeouts: {} # TODO: idleMs and maxMs');
  }
  return `${lines.join('\n')}\n`;
}

/** A YAML scalar that reads back as exactly this string. */
function yamlString(text: string): string {
  return /^[A-Za-z_][\w.-]*$/.test(text) && !/^(true|false|null|yes|no|on|off|~)$/i.test(text) ? text : JSON.stringify(text);
}
