/** A place in a file. Both numbers are 1-based; the column counts UTF-16 code units. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

export type Severity = 'error' | 'warn' | 'info';

/**
 * One problem found in one file: data, not prose. `message` is rendered once from `messageId` and `data`
 * so every output format shows the same sentence.
 */
export interface Finding {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly messageId: string;
  readonly data: Readonly<Record<string, string | number>>;
  readonly message: string;
  readonly file: string;
  /** JSON Pointer of the key or value the finding is about ('' for the whole document). */
  readonly path: string;
  /** Absent only when the file itself could not be read (missing, a directory, too large). */
  readonly range?: Range;
  /** What to do about it, in one sentence. */
  readonly fix?: string;
  /** Present when the finding is suppressed: reported for the record, never counted. */
  readonly suppression?: Suppression;
}

/** `in-source`: an x-mcprely-ignore entry in the manifest; `baseline`: listed in the baseline file. */
export interface Suppression {
  readonly kind: 'in-source' | 'baseline';
  readonly justification: string;
}

/** Rule ids of findings that mean the file could not be understood as a manifest (exit code 2). */
export const INPUT_RULE_IDS: ReadonlySet<string> = new Set(['manifest-file', 'manifest-syntax', 'manifest-schema']);

export function isInputFinding(finding: Finding): boolean {
  return INPUT_RULE_IDS.has(finding.ruleId);
}

/** Fills `{name}` placeholders from data; an unknown placeholder stays visible rather than vanishing. */
export function formatMessage(template: string, data: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in data ? String(data[name]) : whole));
}

export function toJsonPointer(path: readonly (string | number)[]): string {
  return path.map((segment) => '/' + String(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
