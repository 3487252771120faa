import type { LintResult } from '../lint/lint-result.js';
import { formatGithub } from './github.js';
import { formatGitlab } from './gitlab.js';
import { formatJson } from './json.js';
import { formatJunit } from './junit.js';
import { formatMarkdown } from './markdown.js';
import type { ReportContext } from './report-context.js';
import { formatSarif } from './sarif.js';
import { formatStylish } from './stylish.js';

export const FORMAT_NAMES = ['stylish', 'json', 'sarif', 'github', 'junit', 'markdown', 'gitlab'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

export const FORMATTERS: Readonly<Record<FormatName, (result: LintResult, context: ReportContext) => string>> = {
  stylish: formatStylish,
  json: formatJson,
  sarif: formatSarif,
  github: formatGithub,
  junit: formatJunit,
  markdown: formatMarkdown,
  gitlab: formatGitlab,
};
