import type { LintResult } from '../lint/lint-result.js';
import { formatGithub } from './github.js';
import { formatGitlab } from './gitlab.js';
import { formatJson } from './json.js';
import { formatJunit } from './junit.js';
import { formatMarkdown } from './markdown.js';
import type { ReportContext } from './report-context.js';
import { formatSarif } from './sarif.js';
import { formatStylish } from './stylish.js';
import type { FormatName } from './format-names.js';

export { FORMAT_NAMES, type FormatName } from './format-names.js';

export const FORMATTERS: Readonly<Record<FormatName, (result: LintResult, context: ReportContext) => string>> = {
  stylish: formatStylish,
  json: formatJson,
  sarif: formatSarif,
  github: formatGithub,
  junit: formatJunit,
  markdown: formatMarkdown,
  gitlab: formatGitlab,
};
