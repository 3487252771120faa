/** The report formats, apart from their formatters: the CLI's option parsing needs the names, not the code (`--version` loads none). */
export const FORMAT_NAMES = ['stylish', 'json', 'sarif', 'github', 'junit', 'markdown', 'gitlab'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];
