import { truncated } from '../text/display-text.js';
import { closestMatch } from './did-you-mean.js';
import { parsePointer } from './json-pointer.js';
import { makeProblem, type DocumentProblem } from './problem.js';
import { allowedKeys, allowedValues, type SchemaLookup } from './schema-lookup.js';
import { locate, type PathSegment, type SourceNode } from './source-map.js';
import type { SchemaError } from './validator-types.js';

/** Turns one ajv error into one sentence that names the field, points at its place and says what to do. */
/** Patterns too hard to read in a message, in words (the operation name and the fixture id share the first). */
const PATTERN_WORDS: Readonly<Record<string, string>> = {
  '^(?!\\.{1,2}(?:/|$))(?!.*/\\.{1,2}(?:/|$))[A-Za-z0-9_.:-]+(?:/[A-Za-z0-9_.:-]+)*$':
    'a safe name: parts of letters, digits, "_", ".", ":" and "-", joined by single "/", none of them "." or ".."',
};

export function describeSchemaError(error: SchemaError, value: unknown, source: SourceNode, lookup: SchemaLookup): DocumentProblem {
  const schemasAt = lookup.schemasAt;
  const path = parsePointer(error.instancePath);
  const field = displayPath(path, lookup.documentName);
  const params = error.params;
  const at = (target: readonly PathSegment[], where: 'key' | 'value') => ({ path: target, ...locate(source, target, where) });
  switch (error.keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const key = String(params['additionalProperty'] ?? params['unevaluatedProperty']);
      const allowed = allowedKeys(schemasAt(path));
      const suggestion = closestMatch(key, allowed);
      return problem(
        'unknown-field',
        'Unknown field "{key}" in {parent}{hint}',
        { key: truncated(key, 80), parent: field, hint: suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)` },
        suggestion === undefined ? `remove it; allowed here: ${allowed.join(', ')}` : `rename it to ${suggestion}`,
        at([...path, key], 'key'),
      );
    }
    case 'required': {
      const key = String(params['missingProperty']);
      const values = allowedValues(schemasAt([...path, key]));
      const fix = values === undefined ? `add ${key}` : `add ${key}: one of ${values.join(', ')}`;
      return problem(
        'missing-field',
        '{parent} is missing the required field "{key}"',
        { key: truncated(key, 80), parent: capitalise(field) },
        fix,
        at(path, 'key'),
      );
    }
    case 'enum': {
      const values = (params['allowedValues'] as unknown[]).map(String);
      const actual = valueAt(value, path);
      const suggestion = typeof actual === 'string' ? closestMatch(actual, values) : undefined;
      return problem(
        'not-allowed',
        '{field} is {actual}, which is not one of {allowed}{hint}',
        {
          field: capitalise(field),
          actual: shownValue(actual),
          allowed: values.join(', '),
          hint: suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`,
        },
        suggestion === undefined ? `use one of ${values.join(', ')}` : `use ${suggestion}`,
        at(path, 'value'),
      );
    }
    case 'const':
      return problem(
        'not-allowed',
        '{field} must be {expected}, not {actual}',
        {
          field: capitalise(field),
          expected: JSON.stringify(params['allowedValue']),
          actual: shownValue(valueAt(value, path)),
        },
        `set it to ${JSON.stringify(params['allowedValue'])}`,
        at(path, 'value'),
      );
    case 'type': {
      const noun = TYPE_NOUNS[String(params['type'])] ?? String(params['type']);
      return problem(
        'wrong-type',
        '{field} must be {noun}, not {actual}',
        { field: capitalise(field), noun, actual: describeValue(valueAt(value, path)) },
        `write ${field} as ${noun}`,
        at(path, 'value'),
      );
    }
    case 'minimum':
      return problem(
        'too-small',
        '{field} must be at least {limit}, not {actual}',
        { field: capitalise(field), limit: Number(params['limit']), actual: String(valueAt(value, path)) },
        `use a value of ${String(params['limit'])} or more`,
        at(path, 'value'),
      );
    case 'minItems':
      return problem(
        'too-few',
        '{field} must list at least {limit} item(s)',
        { field: capitalise(field), limit: Number(params['limit']) },
        'add the missing entries',
        at(path, 'value'),
      );
    case 'minLength':
      return problem('empty-text', '{field} must not be empty', { field: capitalise(field) }, 'write a value', at(path, 'value'));
    case 'maximum':
      return problem(
        'too-large',
        '{field} must be at most {limit}, not {actual}',
        { field: capitalise(field), limit: Number(params['limit']), actual: shownValue(valueAt(value, path)) },
        `use a value of ${String(params['limit'])} or less`,
        at(path, 'value'),
      );
    case 'maxItems': {
      const items = valueAt(value, path);
      return problem(
        'too-many',
        '{field} lists {count} items; at most {limit} are allowed',
        { field: capitalise(field), count: Array.isArray(items) ? items.length : '?', limit: Number(params['limit']) },
        `keep at most ${String(params['limit'])}`,
        at(path, 'value'),
      );
    }
    case 'maxLength':
      return problem(
        'too-long',
        '{field} is longer than {limit} characters',
        { field: capitalise(field), limit: Number(params['limit']) },
        `shorten it to ${String(params['limit'])} characters or fewer`,
        at(path, 'value'),
      );
    case 'uniqueItems': {
      const later = Number(params['i']);
      return problem(
        'duplicate-item',
        '{field} lists {item} twice (items {first} and {second})',
        { field: capitalise(field), item: shownValue(valueAt(value, [...path, later])), first: Number(params['j']), second: later },
        'remove the repeated entry',
        at([...path, later], 'value'),
      );
    }
    case 'pattern': {
      const words = PATTERN_WORDS[String(params['pattern'])];
      if (words !== undefined)
        return problem(
          'bad-format',
          '{field} is {actual}, which is not {words}',
          { field: capitalise(field), actual: shownValue(valueAt(value, path)), words },
          'rename it: no empty, "." or ".." part, and only those characters',
          at(path, 'value'),
        );
      return problem(
        'bad-format',
        '{field} is {actual}, which does not match {pattern}',
        { field: capitalise(field), actual: shownValue(valueAt(value, path)), pattern: String(params['pattern']) },
        'use only the characters the pattern allows',
        at(path, 'value'),
      );
    }
    default:
      return problem(
        'schema',
        '{field} {reason}',
        { field: capitalise(field), reason: error.message ?? `fails ${error.keyword}` },
        `see the schema of ${lookup.documentName}`,
        at(path, 'value'),
      );
  }
}

const TYPE_NOUNS: Record<string, string> = {
  object: 'a mapping',
  array: 'a list',
  integer: 'a whole number',
  number: 'a number',
  string: 'a text',
  boolean: 'true or false',
};

function problem(
  messageId: string,
  template: string,
  data: Record<string, string | number>,
  fix: string,
  place: { path: readonly PathSegment[]; start: number; end: number },
): DocumentProblem {
  return makeProblem('schema', { messageId, template, data, fix, path: place.path, start: place.start, end: place.end });
}

/** `operations[0].timeouts.maxMs`; the document itself is named (e.g. "the manifest"). */
export function displayPath(path: readonly PathSegment[], documentName = 'the manifest'): string {
  if (path.length === 0) return documentName;
  let text = '';
  for (const segment of path) {
    const key = String(segment);
    if (/^\d+$/.test(key)) text += `[${key}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(key)) text += text === '' ? key : `.${key}`;
    else text += `[${JSON.stringify(truncated(String(key), 80))}]`;
  }
  return text;
}

function capitalise(text: string): string {
  return text.startsWith('the ') ? `T${text.slice(1)}` : text;
}

function valueAt(value: unknown, path: readonly PathSegment[]): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, String(segment))) return undefined;
    current = (current as Record<string, unknown>)[String(segment)];
  }
  return current;
}

/** A value as the message quotes it: JSON, at most 200 characters of it (a long value is never echoed whole). */
function shownValue(value: unknown): string {
  return truncated(JSON.stringify(value) ?? 'undefined', 200);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`;
  if (typeof value === 'number' && !Number.isInteger(value)) return `the fraction ${value}`;
  return `${typeof value} ${String(value)}`;
}
