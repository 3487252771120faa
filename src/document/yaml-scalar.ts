/**
 * Resolution of untagged plain YAML scalars by the YAML 1.2 core schema: null, booleans, integers
 * (decimal, 0o octal, 0x hex) and floats (including .inf and .nan); anything else is a string.
 */
const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);
const TRUES = new Set(['true', 'True', 'TRUE']);
const FALSES = new Set(['false', 'False', 'FALSE']);
const DECIMAL_INT = /^[-+]?[0-9]+$/;
const OCTAL_INT = /^0o[0-7]+$/;
const HEX_INT = /^0x[0-9a-fA-F]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const INFINITY = /^[-+]?\.(?:inf|Inf|INF)$/;
const NAN = /^\.(?:nan|NaN|NAN)$/;

export type YamlScalar = string | number | boolean | null;

export function resolvePlainScalar(text: string): YamlScalar {
  const first = text.charCodeAt(0);
  // Most manifest scalars are words: skip every pattern unless the first character could start a non-string.
  const couldBeNumber = (first >= 48 && first <= 57) || first === 43 || first === 45 || first === 46;
  if (!couldBeNumber) {
    if (NULLS.has(text)) return null;
    if (TRUES.has(text)) return true;
    if (FALSES.has(text)) return false;
    return text;
  }
  if (DECIMAL_INT.test(text)) return Number.parseInt(text, 10);
  if (OCTAL_INT.test(text)) return Number.parseInt(text.slice(2), 8);
  if (HEX_INT.test(text)) return Number.parseInt(text.slice(2), 16);
  if (FLOAT.test(text)) return Number.parseFloat(text);
  if (INFINITY.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (NAN.test(text)) return Number.NaN;
  return text;
}

/** Values for the standard explicit tags; `undefined` when the text does not fit the tag. */
export function resolveTaggedScalar(tag: string, text: string): YamlScalar | undefined {
  switch (tag) {
    case '!':
    case '!!str':
      return text;
    case '!!null':
      return NULLS.has(text) ? null : undefined;
    case '!!bool':
      return TRUES.has(text) ? true : FALSES.has(text) ? false : undefined;
    case '!!int': {
      const value = resolvePlainScalar(text);
      return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
    }
    case '!!float': {
      const value = resolvePlainScalar(text);
      return typeof value === 'number' ? value : undefined;
    }
    default:
      return undefined;
  }
}
