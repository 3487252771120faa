import { formatMessage } from './message-template.js';
import type { PathSegment } from './source-map.js';

/**
 * Something that keeps a file from being a valid manifest. `start`/`end` are 0-based offsets into the
 * decoded text; they are absent when the problem is about the file as a whole.
 */
export interface DocumentProblem {
  readonly kind: 'file' | 'syntax' | 'schema';
  readonly messageId: string;
  readonly data: Readonly<Record<string, string | number>>;
  readonly message: string;
  readonly fix?: string;
  readonly path?: readonly PathSegment[];
  readonly start?: number;
  readonly end?: number;
}

export interface ProblemSpec {
  readonly messageId: string;
  readonly template: string;
  readonly data?: Readonly<Record<string, string | number>>;
  readonly fix?: string;
  readonly start?: number;
  readonly end?: number;
  readonly path?: readonly PathSegment[];
}

export function makeProblem(kind: DocumentProblem['kind'], spec: ProblemSpec): DocumentProblem {
  const data = spec.data ?? {};
  const { template: _template, ...rest } = spec;
  return { kind, ...rest, data, message: formatMessage(spec.template, data) };
}

/** Thrown inside a parser to stop at the first syntax problem; never escapes the manifest module. */
export class SyntaxProblem extends Error {
  constructor(readonly problem: DocumentProblem) {
    super(problem.message);
  }
}

export function syntaxError(spec: ProblemSpec): SyntaxProblem {
  return new SyntaxProblem(makeProblem('syntax', spec));
}

export function tooDeepError(start: number, limit: number): SyntaxProblem {
  return syntaxError({
    messageId: 'too-deep',
    template: 'Mappings and lists are nested more than {limit} levels deep here',
    data: { limit },
    fix: 'flatten the structure; a manifest needs about six levels',
    start,
    end: start + 1,
  });
}

/** `earlier` is the 1-based place of the first occurrence of the key. */
export function duplicateKeyError(key: string, start: number, end: number, earlier: { line: number; column: number }): SyntaxProblem {
  return syntaxError({
    messageId: 'duplicate-key',
    template: 'The key "{key}" appears twice in this mapping (first at line {line}, column {column})',
    data: { key, line: earlier.line, column: earlier.column },
    fix: 'keep one of them',
    start,
    end,
  });
}
