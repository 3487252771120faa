import { MAX_MANIFEST_BYTES } from '../document/limits.js';
import type { Severity } from '../findings/finding.js';
import type { FileReport } from '../lint/file-report.js';
import { exitCodeOf } from '../lint/lint-result.js';
import type { RuleDescriptor } from '../findings/rule-descriptor.js';
import { FORMATTERS } from '../report/formats.js';
import { FORMATS_NAMING_RULES } from '../report/format-names.js';
import { writeJson } from '../report/json.js';
import { sarifWriter, writeSarif } from '../report/sarif.js';
import { plural } from '../text/plural.js';
import { useColor } from './color.js';
import type { OutputSpec } from './output-spec.js';
import { type FileRead, tooLargeFinding } from '../workspace/read-manifest-file.js';
import { ruleDocsBase } from '../workspace/rule-docs-base.js';
import { type LintRun, type LintSettingsOptions, lintPaths } from '../api/lint-paths.js';
import { openOutputFile, writeOutputFile, writeOutputFileInPieces } from '../workspace/output-files.js';

export interface LintCommandOptions extends LintSettingsOptions {
  readonly outputs: readonly OutputSpec[];
  readonly failSeverity: Severity;
  readonly maxWarnings?: number;
  /** An http(s) address of the docs/rules/ folder to link rule pages at (default: relative to each report). */
  readonly docsUrl?: string;
  /** SARIF `automationDetails.id` category (default `mcprely`). */
  readonly sarifCategory?: string;
  /** Lint one manifest from standard input (no paths), reported under this name (--stdin-filename, default `<stdin>`). */
  readonly stdin?: { readonly filename: string };
}

/** Reads each path, lints it, writes every requested report; returns the exit code. One bad file never stops the others. */
export async function runLint(paths: readonly string[], options: LintCommandOptions, toolVersion: string): Promise<number> {
  const cwd = process.cwd();
  const contextOf = (output: OutputSpec, rules: readonly RuleDescriptor[]) => {
    const ruleDocs = ruleDocsBase(options.docsUrl, output.file, cwd);
    return {
      toolVersion,
      rules,
      color: output.file === undefined && useColor(options.fix === 'dry-run' ? process.stderr : process.stdout),
      sourceRoot: cwd,
      ...(ruleDocs === undefined ? {} : { ruleDocs }),
      ...(options.sarifCategory === undefined ? {} : { category: options.sarifCategory }),
    };
  };
  // One SARIF log to a file (and no --fix or new baseline, which need every report): written while linting, so
  // no report is kept once it is written and memory does not grow with the findings.
  const only = options.outputs.length === 1 ? options.outputs[0]! : undefined;
  const streamTo =
    only?.format === 'sarif' && only.file !== undefined && options.fix === undefined && options.writeBaseline === undefined
      ? only
      : undefined;
  let streaming: { writer: ReturnType<typeof sarifWriter>; file: ReturnType<typeof openOutputFile> } | undefined;
  const stream =
    streamTo === undefined
      ? undefined
      : (rules: readonly RuleDescriptor[]) => {
          const file = openOutputFile(streamTo.file!);
          streaming = { writer: sarifWriter(contextOf(streamTo, rules), file.write), file };
          return (report: FileReport) => streaming!.writer.file(report);
        };
  const input =
    options.stdin === undefined ? undefined : { file: options.stdin.filename, read: await readStandardInput(options.stdin.filename) };
  let run: LintRun;
  try {
    run = await lintPaths(
      paths,
      {
        ...options,
        ...(input === undefined ? {} : { input }),
        fixReplacements: options.outputs.some((output) => output.format === 'sarif'),
        toolVersion,
        ...(stream === undefined ? {} : { stream }),
      },
      cwd,
    );
    streaming?.writer.end();
  } finally {
    streaming?.file.close();
  }
  if (!run.ok) {
    process.stderr.write(run.report);
    return 2;
  }
  for (const note of run.notes) process.stderr.write(`${note}\n`);
  const { result } = run;
  const fixing = options.fix !== undefined ? await import('../fix-writer/fix-files.js') : undefined;
  if (options.fix === 'dry-run')
    for (const file of run.fixed) process.stdout.write(fixing!.unifiedDiff(file.file, file.before, file.after));
  if (options.fix !== undefined) {
    const count = run.fixed.reduce((sum, file) => sum + file.fixes, 0);
    const files = run.fixed.length;
    process.stderr.write(`${options.fix === 'write' ? 'fixed' : 'would fix'} ${plural(count, 'value')} in ${plural(files, 'file')}\n`);
    const todos = run.fixed.flatMap((file) => file.todos);
    if (todos.length > 0) {
      // A claim change makes the manifest say something new about the server: the code has to follow.
      process.stderr.write(`${options.fix === 'write' ? 'to do' : 'to do, if applied'}: the manifest claims what the code must now do\n`);
      for (const todo of todos) process.stderr.write(`  ${todo}\n`);
    }
  }
  for (const output of options.outputs) {
    if (output === streamTo) continue; // written while linting
    const context = contextOf(output, FORMATS_NAMING_RULES.has(output.format) ? await run.rules() : []);
    // A SARIF log or JSON report can be tens of megabytes: to a file it is written as it is made.
    const pieces = output.format === 'sarif' ? writeSarif : output.format === 'json' ? writeJson : undefined;
    if (pieces !== undefined && output.file !== undefined) {
      writeOutputFileInPieces(output.file, (write) => pieces(result, context, write));
      continue;
    }
    const text = FORMATTERS[output.format](result, context);
    // --fix-dry-run keeps standard output for the diff alone: the report of what is left goes to standard error.
    if (output.file === undefined) (options.fix === 'dry-run' ? process.stderr : process.stdout).write(text);
    else writeOutputFile(output.file, text);
  }
  return exitCodeOf(result, {
    failSeverity: options.failSeverity,
    ...(options.maxWarnings === undefined ? {} : { maxWarnings: options.maxWarnings }),
  });
}

/** Standard input, read to its end or to one byte past the manifest limit (then it is refused as too large, as a file would be). */
async function readStandardInput(file: string): Promise<FileRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > MAX_MANIFEST_BYTES) {
      process.stdin.destroy();
      return { ok: false, finding: tooLargeFinding(file) };
    }
  }
  return { ok: true, bytes: new Uint8Array(Buffer.concat(chunks)) };
}
