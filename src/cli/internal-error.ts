/** A bug of ours, not bad input: one line for the user, the stack only when MCPRELY_DEBUG is set. */
export function reportInternalError(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`mcprely: internal error: ${message}\n`);
  if (process.env['MCPRELY_DEBUG']) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
  else process.stderr.write('Run again with MCPRELY_DEBUG=1 to see where, and report it.\n');
  process.exitCode = 2;
}
