import { type GuardedListener, requestGuard } from '../../src/listener/request-guard.js';

/** The guard a listener on 127.0.0.1 gets by default (loopback names only), telling no one of what it refuses. */
export const LOOPBACK_ONLY: GuardedListener = { guard: requestGuard('127.0.0.1'), refused: () => undefined };
