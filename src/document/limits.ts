/** Limits that keep one hostile or broken file from exhausting the linter. Stated in docs/guides/limits-and-security.md. */
export const MAX_MANIFEST_BYTES = 2 * 1024 * 1024;
/** Mappings and sequences nested deeper than this are refused; a real manifest needs about six levels. */
export const MAX_NESTING_DEPTH = 64;
/** Nodes that YAML aliases may add by expansion, summed over the file (a billion-laughs file adds 10^9). */
export const MAX_ALIAS_EXPANSION = 50_000;
/** Characters of scalar text that YAML aliases may add by expansion, summed over the file (twice the largest file). */
export const MAX_ALIAS_CHARACTERS = 2 * MAX_MANIFEST_BYTES;
