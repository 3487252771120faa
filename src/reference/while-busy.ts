/**
 * Runs `attempt` again while SQLite reports the database busy, until `timeoutMs` has passed. The busy timeout
 * covers waiting for another connection's lock, but not every case: two connections opening a new file at once
 * may find it busy while one switches it to WAL, and SQLite then fails at once instead of waiting.
 */
export function whileBusy<T>(timeoutMs: number, attempt: () => T): T {
  const deadline = Date.now() + timeoutMs;
  for (let tries = 0; ; tries++) {
    try {
      return attempt();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      sleep(Math.min(50, 2 ** tries));
    }
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}
