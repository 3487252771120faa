/**
 * The client's two clocks for one request, as the operation's policy sets them: an idle timeout that
 * progress (and, if the policy says so, keep-alive) resets, and a maximum that progress resets only when the
 * policy says so (the flaw the maximum-timeout fixture exposes). `null` means the policy has no such clock.
 */
export class ClientDeadline {
  #idleFrom: number;
  #maxFrom: number;

  constructor(
    startedAt: number,
    readonly idleMs: number | null,
    readonly maxMs: number | null,
    private readonly policy: { resetIdleOnProgress: boolean; resetMaxOnProgress: boolean; keepaliveCountsAsActivity: boolean },
  ) {
    this.#idleFrom = startedAt;
    this.#maxFrom = startedAt;
  }

  progress(at: number): void {
    if (this.policy.resetIdleOnProgress) this.#idleFrom = at;
    if (this.policy.resetMaxOnProgress) this.#maxFrom = at;
  }

  keepAlive(at: number): void {
    if (this.policy.keepaliveCountsAsActivity) this.#idleFrom = at;
  }

  /** The deadline due at `at`, the maximum first. */
  due(at: number): 'maximum timeout' | 'idle timeout' | undefined {
    if (this.maxMs !== null && at - this.#maxFrom >= this.maxMs) return 'maximum timeout';
    if (this.idleMs !== null && this.idleMs > 0 && at - this.#idleFrom >= this.idleMs) return 'idle timeout';
    return undefined;
  }
}
