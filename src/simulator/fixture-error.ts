/** A fixture that cannot be run as written (a step on an unknown request, time going backwards, …), with the place. */
export class FixtureError extends Error {
  override readonly name = 'FixtureError';
  constructor(
    message: string,
    /** Path inside the fixture document, e.g. ['steps', 3, 'request']. */
    readonly path: readonly (string | number)[],
  ) {
    super(message);
  }
}
