/** A command-line mistake found after commander parsed the flags; exit code 2 like any usage error. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
