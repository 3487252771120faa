import type { Fixture, FixtureKind } from '../fixtures/fixture-types.js';
import type { CheckResult, ProbeReport } from './probe-types.js';
import type { WireEntry } from './wire-log.js';
import { displayText } from '../text/display-text.js';

/**
 * How each fixture kind is run against a live server: by the probe check that plays the same scenario on the
 * wire (over the probe's own connection), or not at all, with the reason. A fixture runs live only on its own
 * transport and revision, and only for the operation the probe calls (the mutation, for the key kinds).
 */
export const LIVE_KINDS: Readonly<
  Record<FixtureKind, { readonly check: string; readonly role: 'tool' | 'mutation' } | { readonly cannot: string }>
> = {
  'stdio-cancel-before-completion': { check: 'cancel-before-completion', role: 'tool' },
  'http-cancel-before-completion': { check: 'cancel-before-completion', role: 'tool' },
  'stdio-complete-before-late-cancel': { check: 'ignored-cancellations', role: 'tool' },
  'progress-resets-idle-maximum-fires': { check: 'client-timeouts', role: 'tool' },
  'one-key-identical-arguments': { check: 'idempotent-replay', role: 'mutation' },
  'key-reuse-changed-arguments': { check: 'idempotent-replay', role: 'mutation' },
  'duplicate-mutation-two-ids-no-key': { cannot: 'it sends one mutation twice without a key: run live, it would change state twice' },
  'slow-consumer-overflows-buffer': {
    cannot: "it needs the server's progress buffer filled by a client that stops reading, which the wire does not show",
  },
  'stream-drop-reconnect-refetch': {
    cannot: "it drops the stream in the middle of the server's work and needs the server's own refetch, not observable from outside",
  },
  'task-cancel-ack-then-worker-checkpoint': {
    cannot: "it needs the server's task worker to reach a checkpoint, which the wire does not show",
  },
  'two-connections-race-one-key': {
    cannot: "it races two connections on one key inside the server's ledger; run live, it would change state",
  },
  'caller-mutates-result-clean-replay': { cannot: "it mutates a result in the server's memory, which no client can reach" },
  'close-reopen-replay': { cannot: "it closes and reopens the server's ledger, which no client can do" },
  'lost-response-automatic-retry': {
    cannot: 'it loses a response on purpose and retries a mutation automatically; run live, it would change state',
  },
  'proxy-buffering-sse': { cannot: 'it needs the reverse proxy in front of the server, not the server alone' },
  'quiet-stream-behind-proxy': { cannot: "it needs the reverse proxy's idle timeout, not the server alone" },
  'reconnect-herd-backoff': { cannot: 'it reconnects a thousand clients at once, which a probe must not do to a server' },
  'retry-herd-backoff': { cannot: 'it retries a thousand clients at once, which a probe must not do to a server' },
  'idle-timeout-fires-on-silence': { cannot: "it judges the client's idle clock, which a probe of the server does not exercise" },
  'timeout-then-late-response': {
    cannot: 'it judges what the client does with a late response, which a probe of the server does not exercise',
  },
  'timeout-retry-new-request-id': { cannot: "it judges the client's retry ids, which a probe of the server does not exercise" },
  'task-drop-then-poll': {
    cannot:
      "it needs the server's task store to outlive a dropped connection, which a probe cannot tell from a store that happens to still run",
  },
  'key-reuse-across-tenants': {
    cannot: "it sends one key as two tenants, which needs a second tenant's credentials the probe does not have",
  },
};

/** A fixture run against the live server, or why it was not. */
export interface LiveFixtureResult {
  readonly id: string;
  readonly kind: FixtureKind;
  readonly operation: string;
  readonly transport: string;
  readonly status: 'pass' | 'fail' | 'not run';
  /** What the check found, or why the fixture did not run live. */
  readonly summary: string;
  /** The probe check that played it, when one did. */
  readonly check?: string;
  readonly transcript: readonly WireEntry[];
}

/** The fixtures of a manifest, judged on the wire by the probe's checks (already run). Pure. */
export function liveFixtureResults(fixtures: readonly Fixture[], report: ProbeReport): LiveFixtureResult[] {
  return fixtures.map((fixture) => {
    const base = { id: fixture.id, kind: fixture.kind, operation: fixture.operation, transport: fixture.transport };
    const notRun = (summary: string): LiveFixtureResult => ({ ...base, status: 'not run', summary, transcript: [] });
    const live = LIVE_KINDS[fixture.kind];
    if ('cannot' in live) return notRun(`cannot be run live: ${live.cannot}`);
    if (fixture.transport !== report.transport)
      return notRun(`the fixture is for ${fixture.transport}; the server was probed over ${report.transport}`);
    if (fixture.specVersion !== report.revision)
      return notRun(`the fixture is for ${fixture.specVersion}; the server speaks ${report.revision}`);
    const called = live.role === 'tool' ? report.plan?.tool : report.plan?.mutation;
    if (called !== fixture.operation)
      return notRun(
        live.role === 'tool'
          ? `the probe called ${called ?? 'no long-running tool'}, not ${fixture.operation} (name it with --operation)`
          : `the probe called ${called ?? 'no mutation'} with one key${called === null || called === undefined ? ' (that needs --allow-mutations)' : ''}, ` +
              `not ${fixture.operation}`,
      );
    const check: CheckResult | undefined = report.checks.find((candidate) => candidate.id === live.check);
    if (check === undefined) return notRun(`the probe did not run ${live.check}`);
    if (check.status === 'skip') return { ...notRun(`not run: ${check.summary}`), check: check.id };
    return { ...base, status: check.status, summary: check.summary, check: check.id, transcript: check.transcript };
  });
}

/** A live fixture as text: its status, what played it, and the wire transcript of that check. */
export function renderLiveFixture(result: LiveFixtureResult): string {
  const lines = [
    `${result.status === 'not run' ? 'NOT RUN' : result.status.toUpperCase()}  ${result.id}  [${result.transport}, live]`,
    `      ${result.check === undefined ? '' : `played by the probe check ${result.check}: `}${result.summary}`,
    ...result.transcript.map((entry) => `  t=${String(entry.t).padStart(6)}ms ${entry.direction} ${entry.text}`),
  ];
  // What the server sent cannot break out of its line or colour the screen.
  return `${lines.map(displayText).join('\n')}\n`;
}
