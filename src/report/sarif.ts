import { type Autofix, changeOf, describeChange, type Finding, type Severity } from '../findings/finding.js';
import { stablePath } from '../findings/stable-path.js';
import type { FileReport } from '../lint/file-report.js';
import type { LintResult } from '../lint/lint-result.js';
import { artifactUri, directoryUri } from './file-uri.js';
import { DEFAULT_CATEGORY, ruleDocLink, type ReportContext } from './report-context.js';
import { hexDigest } from '../text/sha.js';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warn: 'warning', info: 'note' };

/** The key of mcprely's own partial fingerprint; its version changes only if what it hashes changes. */
export const FINGERPRINT_KEY = 'mcprelyFinding/v2';

/**
 * SARIF 2.1.0 as GitHub code scanning reads it: the rules the results name, each with its help (short with a
 * `helpUri`, which is given only where its page is known to exist at an absolute address; else the whole page),
 * results with ruleId, ruleIndex, level and region (1-based, UTF-16 columns) relative to `%SRCROOT%`, suppressed
 * findings marked as suppressed, one `automationDetails.id` per manifest set, and a partial fingerprint per
 * result that names the operation rather than counting it, so code scanning keeps an alert across edits that
 * move lines or reorder operations.
 */
export function formatSarif(result: LintResult, context: SarifContext): string {
  const chunks: string[] = [];
  writeSarif(result, context, (chunk) => chunks.push(chunk));
  return chunks.join('');
}

type SarifContext = Pick<ReportContext, 'toolVersion' | 'rules' | 'ruleDocs' | 'category' | 'sourceRoot'>;

/** Where the results sit in the pretty-printed log, and how deep. */
const RESULTS_MARKER = '\u0000mcprely-results\u0000';
const RESULT_INDENT = ' '.repeat(8);

/**
 * The SARIF log as `formatSarif` returns it, given to `write` in pieces: the log around the results (indented),
 * then one result at a time, each on a line of its own, so a large run never holds the whole log (or an array of
 * every result) in memory.
 */
export function writeSarif(result: LintResult, context: SarifContext, write: (chunk: string) => void): void {
  const writer = sarifWriter(context, write);
  for (const file of result.files) writer.file(file);
  writer.end();
}

/**
 * A SARIF log written as the files are linted: `file` writes a file's results, `end` closes the log. What it
 * writes in all is what `writeSarif` writes for the same files.
 */
export function sarifWriter(context: SarifContext, write: (chunk: string) => void): { file(report: FileReport): void; end(): void } {
  const known = new Map(context.rules.map((rule) => [rule.id, rule]));
  // Only the rules results name are described (code scanning needs no more): each gets its index as it is first
  // named, and the tool's rule list, written after the results, holds them in that order.
  const used: ReportContext['rules'][number][] = [];
  const ruleIndex = new Map<string, number>();
  const indexOf = (ruleId: string): number | undefined => {
    const index = ruleIndex.get(ruleId);
    if (index !== undefined) return index;
    const rule = known.get(ruleId);
    if (rule === undefined) return undefined;
    ruleIndex.set(ruleId, used.length);
    used.push(rule);
    return used.length - 1;
  };
  const occurrences = new Map<string, number>();
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        automationDetails: { id: `${context.category ?? DEFAULT_CATEGORY}/` },
        ...(context.sourceRoot === undefined ? {} : { originalUriBaseIds: { '%SRCROOT%': { uri: directoryUri(context.sourceRoot) } } }),
        columnKind: 'utf16CodeUnits',
        results: RESULTS_MARKER,
        tool: TOOL_MARKER,
      },
    ],
  };
  const [head, tail] = JSON.stringify(sarif, null, 2).split(JSON.stringify(RESULTS_MARKER)) as [string, string];
  let first = true;
  return {
    file(report) {
      const uri = artifactUri(report.file);
      // Fingerprint keys hold the file's uri, so occurrences never carry over from one file to the next.
      occurrences.clear();
      const artifact = JSON.stringify(uri);
      for (const finding of report.findings) {
        // One result per line: a large log stays quick to write and to diff.
        const text = sarifResultJson(finding, indexOf(finding.ruleId), fingerprint(finding, uri, occurrences), uri, artifact);
        write(`${first ? `${head}[\n` : ',\n'}${RESULT_INDENT}${text}`);
        first = false;
      }
    },
    end() {
      const tool = {
        driver: {
          name: 'mcprely',
          version: context.toolVersion,
          semanticVersion: context.toolVersion,
          rules: used.map((rule) => sarifRule(rule, context)),
        },
      };
      const shownTool = JSON.stringify(tool, null, 2).replace(/\n/g, `\n${' '.repeat(6)}`);
      write(`${first ? `${head}[]` : `\n${' '.repeat(6)}]`}${tail.replace(JSON.stringify(TOOL_MARKER), () => shownTool)}\n`);
    },
  };
}

const TOOL_MARKER = '\u0000mcprely-tool\u0000';

/**
 * A rule as code scanning shows it. With the rule's page at an absolute address (`helpUri`), the help is short: what
 * it checks and how to fix it, and the link. Without one, the help is the rule's whole page, the only copy the reader has.
 */
function sarifRule(rule: ReportContext['rules'][number], context: SarifContext) {
  const link = context.ruleDocs?.absolute === true ? ruleDocLink(context, rule) : undefined;
  const short = `${rule.description}\n\n**Fix.** ${rule.fix}`;
  const markdown =
    link === undefined ? (rule.helpMarkdown ?? `${rule.rationale}\n\n**Fix.** ${rule.fix}`) : `${short}\n\n[The rule's page](${link})`;
  return {
    id: rule.id,
    name: pascalCase(rule.id),
    shortDescription: { text: rule.description },
    fullDescription: { text: rule.rationale },
    help: {
      text:
        link === undefined
          ? `${rule.description}\n\n${rule.rationale}\n\nFix: ${rule.fix}`
          : `${rule.description}\n\nFix: ${rule.fix}\n\n${link}`,
      markdown,
    },
    ...(link === undefined ? {} : { helpUri: link }),
    defaultConfiguration: { level: LEVEL[rule.severity] },
    properties: {
      tags: ['mcp', 'reliability', ...rule.tags],
      precision: 'very-high',
      'problem.severity': rule.severity === 'warn' ? 'warning' : rule.severity === 'info' ? 'recommendation' : 'error',
    },
  };
}

/**
 * What identifies a finding across runs: its file, rule, message kind, place with the operation named (never
 * a line, a column or an operation's index) and the operation it is about (a finding on an inherited default
 * has the defaults' place), and which occurrence of that key it is.
 */
function fingerprint(finding: Finding, artifact: ReturnType<typeof artifactUri>, occurrences: Map<string, number>): string {
  const operation = finding.data['operation'];
  const key = JSON.stringify([
    artifact.uri,
    finding.ruleId,
    finding.messageId,
    stablePath(finding),
    typeof operation === 'string' ? operation : '',
  ]);
  const occurrence = (occurrences.get(key) ?? 0) + 1;
  occurrences.set(key, occurrence);
  return `${sha256Hex(key).slice(0, 32)}:${occurrence}`;
}

// One-shot hashing (Node 20.12 and later) costs a fraction of a Hash object per finding.
const sha256Hex = (text: string): string => hexDigest('sha256', text);

/**
 * One result as JSON text, written field by field (ruleId, ruleIndex, level, message, locations,
 * partialFingerprints, fixes, suppressions) without building the object first: a log of many findings spends
 * its time here. The region's endColumn is at least one past startColumn on a single line (an empty region
 * would show nothing).
 */
function sarifResultJson(
  finding: Finding,
  index: number | undefined,
  print: string,
  artifact: ReturnType<typeof artifactUri>,
  artifactJson: string,
): string {
  const range = finding.range;
  let region = '';
  if (range !== undefined) {
    const { start, end } = range;
    const endColumn = Math.max(end.column, start.column + (end.line === start.line ? 1 : 0));
    region = `,"region":{"startLine":${start.line},"startColumn":${start.column},"endLine":${end.line},"endColumn":${endColumn}}`;
  }
  let text = `{"ruleId":${JSON.stringify(finding.ruleId)}${index === undefined ? '' : `,"ruleIndex":${index}`},"level":"${LEVEL[finding.severity]}"`;
  text += `,"message":{"text":${JSON.stringify(finding.fix === undefined ? finding.message : `${finding.message}. ${finding.fix}`)}}`;
  text += `,"locations":[{"physicalLocation":{"artifactLocation":${artifactJson}${region}}}]`;
  text += `,"partialFingerprints":{"${FINGERPRINT_KEY}":"${print}"}`;
  const fixes = sarifFixes(finding, artifact);
  if (fixes.length > 0) text += `,"fixes":${JSON.stringify(fixes)}`;
  if (finding.suppression !== undefined) text += `,"suppressions":${JSON.stringify(sarifSuppressions(finding.suppression))}`;
  return `${text}}`;
}

function sarifFixes(finding: Finding, artifact: ReturnType<typeof artifactUri>) {
  const fixes = [];
  const fix = sarifFix(finding, finding.autofix, 'mcprely lint --fix makes this change', artifact);
  if (fix !== undefined) fixes.push(fix);
  const claim = sarifFix(
    finding,
    finding.claimFix,
    'a claim change: the manifest would say the server does this; make the server do it',
    artifact,
  );
  if (claim !== undefined) fixes.push(claim);
  const suggestion = sarifFix(finding, finding.suggestion, 'a suggestion: check the value before you apply it', artifact);
  if (suggestion !== undefined) fixes.push(suggestion);
  return fixes;
}

function sarifSuppressions(suppression: NonNullable<Finding['suppression']>) {
  return [{ kind: suppression.kind === 'in-source' ? 'inSource' : 'external', justification: suppression.justification }];
}

function pascalCase(id: string): string {
  return id.replace(/(^|-)([a-z0-9])/g, (_, __, letter: string) => letter.toUpperCase());
}

/** A SARIF fix: the change in words and the text replacement that makes it (for a fix whose text is known). */
function sarifFix(finding: Finding, fix: Autofix | undefined, kind: string, artifact: ReturnType<typeof artifactUri>) {
  if (fix?.replacement === undefined) return undefined;
  const { start, end, text } = fix.replacement;
  return {
    description: { text: `${capitalised(describeChange(changeOf(fix), finding.path))} (${kind})` },
    artifactChanges: [
      {
        artifactLocation: artifact,
        replacements: [
          {
            deletedRegion: { startLine: start.line, startColumn: start.column, endLine: end.line, endColumn: end.column },
            insertedContent: { text },
          },
        ],
      },
    ],
  };
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
