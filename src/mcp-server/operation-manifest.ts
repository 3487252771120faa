import type { Finding } from '../findings/finding.js';
import type { Transport } from '../protocol/transports.js';
import type { SpecVersion } from '../spec/revisions.js';

/**
 * One operation's YAML made a manifest to review: a head (the revision, a server offering the transports) and the
 * operation as its only entry, indented under `operations:`. What is found in it is told at the operation's own
 * lines and columns (`placeBack`); a finding about the head names no place.
 */
export interface OperationManifest {
  readonly text: string;
  /** A finding at its place in the operation's text (without a place when it is about the head mcprely wrote). */
  readonly placeBack: (finding: Finding) => Finding;
}

export function operationManifest(operation: string, specVersion: SpecVersion, transports: readonly Transport[]): OperationManifest {
  const head = [
    '# one operation, reviewed by mcprely mcp',
    'mcprely: 1',
    `specVersion: "${specVersion}"`,
    'server:',
    '  name: operation-under-review',
    `  transports: [${transports.join(', ')}]`,
    'operations:',
  ];
  const lines = operation.replace(/\r\n?/g, '\n').split('\n');
  // An operation pasted as a list entry (`- name: …`) keeps its dash; else it becomes the entry.
  const listed = /^\s*-\s/.test(lines.find((line) => line.trim() !== '' && !line.trim().startsWith('#')) ?? '');
  const shift = listed ? 2 : 4;
  const body = lines.map((line, index) => (listed || index > 0 ? `${' '.repeat(shift)}${line}` : `  - ${line}`));
  const placeBack = (finding: Finding): Finding => {
    const { range, ...rest } = finding;
    if (range === undefined) return finding;
    if (range.start.line <= head.length) return rest;
    const back = (at: { line: number; column: number }) => ({ line: at.line - head.length, column: Math.max(1, at.column - shift) });
    return { ...rest, range: { start: back(range.start), end: back(range.end) } };
  };
  return { text: `${[...head, ...body].join('\n')}\n`, placeBack };
}
