import { FORMAT_NAMES, type FormatName } from '../report/format-names.js';
import { UsageError } from '../workspace/usage-error.js';

export interface OutputSpec {
  readonly format: FormatName;
  /** Absent: standard output. */
  readonly file?: string;
}

/**
 * Pairs repeated --format and --output flags in the order given: each --output belongs to the nearest
 * --format before it (or to the default format when none came before). At most one format may go to
 * standard output.
 */
export class OutputSpecs {
  readonly #specs: { format: FormatName; file?: string; explicit: boolean }[] = [];

  constructor(private readonly defaultFormat: FormatName) {}

  addFormat(name: string): void {
    if (!(FORMAT_NAMES as readonly string[]).includes(name)) throw new Error(`--format ${name} is not one of ${FORMAT_NAMES.join(', ')}`);
    this.#specs.push({ format: name as FormatName, explicit: true });
  }

  addOutput(file: string): void {
    const last = this.#specs.at(-1);
    if (last === undefined) this.#specs.push({ format: this.defaultFormat, file, explicit: false });
    else if (last.file === undefined) last.file = file;
    else throw new Error(`--output ${file} has no --format before it (${last.format} already writes to ${last.file})`);
  }

  resolve(): OutputSpec[] {
    const specs: OutputSpec[] =
      this.#specs.length === 0
        ? [{ format: this.defaultFormat }]
        : this.#specs.map(({ format, file }) => (file === undefined ? { format } : { format, file }));
    const toStdout = specs.filter((spec) => spec.file === undefined);
    if (toStdout.length > 1)
      throw new UsageError(
        `only one format can write to standard output; give ${toStdout
          .slice(1)
          .map((spec) => spec.format)
          .join(', ')} an --output file`,
      );
    return specs;
  }
}
