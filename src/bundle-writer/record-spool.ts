import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ioError } from '../workspace/output-files.js';

/**
 * Records kept in a temporary file instead of memory, each read back by its position: what lets `evidence` of
 * 10 000 operations hold one operation's findings and outcomes at a time. Each record is written as JSON (so it
 * must be plain data: objects, arrays, strings, numbers, booleans; an `undefined` member is dropped, as
 * JSON.stringify drops it). `close` (always) removes the file; the folder is private to this process (mkdtemp).
 */
export class RecordSpool<T> {
  readonly #starts: number[] = [];
  readonly #lengths: number[] = [];
  #end = 0;
  #fd: number | undefined;
  #last: { readonly position: number; readonly value: T } | undefined;

  private constructor(
    readonly folder: string,
    fd: number,
  ) {
    this.#fd = fd;
  }

  static open(): RecordSpool<never> {
    let folder: string | undefined;
    try {
      folder = mkdtempSync(join(tmpdir(), 'mcprely-spool-'));
      return new RecordSpool(folder, openSync(join(folder, 'records'), 'w+', 0o600));
    } catch (error) {
      if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
      throw ioError(error, folder ?? tmpdir(), 'create a temporary file');
    }
  }

  get length(): number {
    return this.#starts.length;
  }

  /** Appends a record; its position is the number of records before it. */
  push(value: T): void {
    const bytes = Buffer.from(JSON.stringify(value), 'utf8');
    try {
      for (let written = 0; written < bytes.length; )
        written += writeSync(this.#open(), bytes, written, bytes.length - written, this.#end + written);
    } catch (error) {
      throw ioError(error, join(this.folder, 'records'), 'write a temporary file');
    }
    this.#starts.push(this.#end);
    this.#lengths.push(bytes.length);
    this.#end += bytes.length;
  }

  /** The record at `position`, read back (the last one read is kept: a review reads each twice in a row). */
  at(position: number): T {
    if (this.#last?.position === position) return this.#last.value;
    const start = this.#starts[position];
    const length = this.#lengths[position];
    if (start === undefined || length === undefined) throw new RangeError(`no record at ${position} of ${this.length}`);
    const bytes = Buffer.allocUnsafe(length);
    try {
      for (let read = 0; read < length; ) {
        const count = readSync(this.#open(), bytes, read, length - read, start + read);
        if (count === 0) throw new Error('the temporary file is shorter than what was written to it');
        read += count;
      }
    } catch (error) {
      throw ioError(error, join(this.folder, 'records'), 'read a temporary file');
    }
    const value = JSON.parse(bytes.toString('utf8')) as T;
    this.#last = { position, value };
    return value;
  }

  /** Every record in order, read back one at a time. */
  *[Symbol.iterator](): Generator<T> {
    for (let position = 0; position < this.length; position++) yield this.at(position);
  }

  /** Closes and removes the file; safe to call twice. */
  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    this.#last = undefined;
    rmSync(this.folder, { recursive: true, force: true });
  }

  #open(): number {
    if (this.#fd === undefined) throw new Error('the spool is closed');
    return this.#fd;
  }
}
