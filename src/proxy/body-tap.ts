import { StringDecoder } from 'node:string_decoder';
import { appendBounded } from './line-tap.js';

/**
 * One HTTP body read from a copy of its bytes, chunk by chunk: the whole text at the end (a JSON-RPC message or
 * batch, however it is laid out), held up to `MAX_RECORDED_LINE` characters and reported `cut` past it.
 */
export class BodyTap {
  readonly #decoder = new StringDecoder('utf8');
  #text = '';
  #cut = false;

  write(chunk: Buffer): void {
    this.#take(this.#decoder.write(chunk));
  }

  /** The body as text, and whether it was longer than a recording keeps. */
  end(): { readonly text: string; readonly cut: boolean } {
    this.#take(this.#decoder.end());
    return { text: this.#text, cut: this.#cut };
  }

  #take(text: string): void {
    if (this.#cut || text === '') return;
    ({ text: this.#text, cut: this.#cut } = appendBounded(this.#text, text));
  }
}
