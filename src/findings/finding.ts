import type { FixChange } from '../document/fix-change.js';
import type { Position, Range } from '../document/position.js';
import { asSentence } from '../text/sentence.js';

export { changeOf, describeChange, type FixChange } from '../document/fix-change.js';

export type Severity = 'error' | 'warn' | 'info';

const RANK: Record<Severity, number> = { info: 0, warn: 1, error: 2 };

/** Whether a finding of `severity` reaches `threshold` (a command's --fail-severity). */
export function atLeast(severity: Severity, threshold: Severity): boolean {
  return RANK[severity] >= RANK[threshold];
}

/**
 * One problem found in one file: data, not prose. `message` is rendered once from `messageId` and `data`
 * so every output format shows the same sentence. Made only by `makeFinding`.
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
  /**
   * A layout fix lint --fix applies at `path` (a JSON Pointer, the finding's own place): it keeps the meaning of
   * every claim (quoting, a comment, canonical spelling, a redundant key removed).
   */
  readonly autofix?: Autofix;
  /**
   * A claim change at `path`: a value that says what the server or its clients do. Applying it changes the
   * claim, not the code, so lint --fix applies it only with `--fix-type claim`, and lists what to change.
   */
  readonly claimFix?: Autofix;
  /**
   * A fix with a value only a person can choose (a capacity, a backoff, an interval): proposed, shown in the
   * reports and offered as a SARIF fix, never applied by lint --fix.
   */
  readonly suggestion?: Autofix;
}

/**
 * A fix: the change at the finding's path, and — when a report asked for it (SARIF) — the text change that
 * makes it (the characters from `start` to `end` become `text`; an insertion when start = end).
 */
export type Autofix = FixChange & {
  readonly replacement?: { readonly start: Position; readonly end: Position; readonly text: string };
};

/** `in-source`: an x-mcprely-ignore entry in the manifest; `baseline`: listed in the baseline file. */
export interface Suppression {
  readonly kind: 'in-source' | 'baseline';
  readonly justification: string;
}

/** What every maker of findings gives: rules, input problems, fixture problems, the probe. */
export interface FindingSpec {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly messageId: string;
  readonly message: string;
  readonly data?: Readonly<Record<string, string | number>>;
  readonly file: string;
  /** Path segments from the document root (made a JSON Pointer here), or a pointer already made. */
  readonly path?: readonly (string | number)[] | string;
  readonly range?: Range;
  readonly fix?: string;
  readonly autofix?: Autofix;
  readonly claimFix?: Autofix;
  readonly suggestion?: Autofix;
}

/** The one factory of findings: every output format can rely on the same fields in the same order. */
export function makeFinding(spec: FindingSpec): Finding {
  // Optional fields are added only when present (no spreads: a run may make tens of thousands of findings).
  const finding: { -readonly [K in keyof Finding]: Finding[K] } = {
    ruleId: spec.ruleId,
    severity: spec.severity,
    messageId: spec.messageId,
    data: spec.data ?? {},
    message: spec.message,
    file: spec.file,
    path: typeof spec.path === 'string' ? spec.path : toJsonPointer(spec.path ?? []),
  };
  if (spec.range !== undefined) finding.range = spec.range;
  // Shown after the message's full stop in every format: a sentence of its own.
  if (spec.fix !== undefined) finding.fix = asSentence(spec.fix);
  if (spec.autofix !== undefined) finding.autofix = spec.autofix;
  if (spec.claimFix !== undefined) finding.claimFix = spec.claimFix;
  if (spec.suggestion !== undefined) finding.suggestion = spec.suggestion;
  return finding;
}

export function toJsonPointer(path: readonly (string | number)[]): string {
  let pointer = '';
  for (const segment of path) {
    const text = String(segment);
    pointer += `/${text.includes('~') || text.includes('/') ? text.replace(/~/g, '~0').replace(/\//g, '~1') : text}`;
  }
  return pointer;
}
