/** A one-line progress counter on a terminal; silent when the stream is not one (CI, pipes, files). */
export class Progress {
  readonly #active: boolean;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly total: number,
  ) {
    this.#active = stream.isTTY === true && total > 1;
  }

  update(index: number, label: string): void {
    if (!this.#active) return;
    const line = `[${index + 1}/${this.total}] ${label}`;
    this.stream.write(`\r${line.slice(0, (this.stream.columns ?? 80) - 1).padEnd((this.stream.columns ?? 80) - 1)}`);
  }

  done(): void {
    if (this.#active) this.stream.write(`\r${' '.repeat((this.stream.columns ?? 80) - 1)}\r`);
  }
}
