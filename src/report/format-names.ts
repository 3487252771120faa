/** The report formats, apart from their formatters: the CLI's option parsing needs the names, not the code (`--version` loads none). */
export const FORMAT_NAMES = ['stylish', 'json', 'sarif', 'github', 'junit', 'markdown', 'gitlab'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/**
 * The formats whose reports list or link the rules (their context's `rules`: SARIF's rule table, markdown's links);
 * the others never read it, so a run writing only those need not compile and describe the rules.
 */
export const FORMATS_NAMING_RULES: ReadonlySet<FormatName> = new Set(['sarif', 'markdown']);
