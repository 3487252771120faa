/**
 * A reader that goes away (`mcprely lint … | head`) closes the pipe: writing then fails with EPIPE. That is
 * not an error of the run — the reader has what it wanted — so the rest of the output is dropped quietly and
 * the run ends with the exit code it earns. Any other failure of a standard stream is reported once.
 */
export function endQuietlyOnClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
      if (stream !== process.stderr) process.stderr.write(`mcprely: cannot write the output: ${error.message}\n`);
      process.exitCode = 2;
    });
  }
}
