import type { Fixture, FixtureKind } from '../fixtures/fixture-types.js';
import { observationOf, type ObservationsByCheck } from '../live/probe-observations.js';
import { type CheckResult, type CheckStatus, type ProbeReport, STATUS_LABELS } from './probe-types.js';
import type { WireEntry } from './wire-log.js';
import type { ProbeCheckId } from './probe-check-catalog.js';
import { displayText } from '../text/display-text.js';

/**
 * How each fixture kind is run against a live server: by the probe check that plays the same scenario on the
 * wire (over the probe's own connection), or not at all, with the reason. A fixture runs live only on its own
 * transport and revision, and only for the operation the probe calls (the mutation, for the key kinds).
 */
export const LIVE_KINDS: Readonly<
  Record<
    FixtureKind,
    | {
        readonly check: ProbeCheckId;
        readonly role: 'tool' | 'mutation';
        /**
         * What the check must have exercised for its pass to be this fixture's: else the fixture is inconclusive, and why.
         * Only the client-timeouts check's scenarios ask it.
         */
        readonly requires?: (observed: Partial<ObservationsByCheck['client-timeouts']>) => string | undefined;
      }
    | { readonly notExercised: string }
    | { readonly notObservable: string }
  >
> = {
  'stdio-cancel-before-completion': { check: 'cancel-before-completion', role: 'tool' },
  'http-cancel-before-completion': { check: 'cancel-before-completion', role: 'tool' },
  'stdio-complete-before-late-cancel': { check: 'ignored-cancellations', role: 'tool' },
  'progress-resets-idle-maximum-fires': {
    check: 'client-timeouts',
    role: 'tool',
    requires: (observed) =>
      observed.fired !== 'maximum'
        ? `the maximum timeout did not fire (${observed.fired === 'idle' ? 'the idle timeout fired first' : 'no timeout fired'})`
        : observed.progress === 0
          ? 'no progress came before the maximum, so no progress reset the idle clock'
          : undefined,
  },
  'one-key-identical-arguments': { check: 'idempotent-replay', role: 'mutation' },
  'key-reuse-changed-arguments': { check: 'idempotent-replay', role: 'mutation' },
  'duplicate-mutation-two-ids-no-key': { notExercised: 'it sends one mutation twice without a key: run live, it would change state twice' },
  'slow-consumer-overflows-buffer': {
    notObservable: "it needs the server's progress buffer filled by a client that stops reading, which the wire does not show",
  },
  'stream-drop-reconnect-refetch': {
    notObservable: "it drops the stream in the middle of the server's work and needs the server's own refetch, not observable from outside",
  },
  'task-cancel-ack-then-worker-checkpoint': {
    notObservable: "it needs the server's task worker to reach a checkpoint, which the wire does not show",
  },
  'two-connections-race-one-key': {
    notExercised: "it races two connections on one key inside the server's ledger; run live, it would change state",
  },
  'caller-mutates-result-clean-replay': { notObservable: "it mutates a result in the server's memory, which no client can reach" },
  'close-reopen-replay': { notObservable: "it closes and reopens the server's ledger, which no client can do" },
  'lost-response-automatic-retry': {
    notExercised: 'it loses a response on purpose and retries a mutation automatically; run live, it would change state',
  },
  'proxy-buffering-sse': { notExercised: 'it needs the reverse proxy in front of the server, not the server alone' },
  'quiet-stream-behind-proxy': { notExercised: "it needs the reverse proxy's idle timeout, not the server alone" },
  'reconnect-herd-backoff': { notExercised: 'it reconnects a thousand clients at once, which a probe must not do to a server' },
  'retry-herd-backoff': { notExercised: 'it retries a thousand clients at once, which a probe must not do to a server' },
  'idle-timeout-fires-on-silence': { notExercised: "it judges the client's idle clock, which a probe of the server does not exercise" },
  'timeout-then-late-response': {
    notExercised: 'it judges what the client does with a late response, which a probe of the server does not exercise',
  },
  'timeout-retry-new-request-id': { notExercised: "it judges the client's retry ids, which a probe of the server does not exercise" },
  'task-drop-then-poll': {
    notObservable:
      "it needs the server's task store to outlive a dropped connection, which a probe cannot tell from a store that happens to still run",
  },
  'key-reuse-across-tenants': {
    notExercised: "it sends one key as two tenants, which needs a second tenant's credentials the probe does not have",
  },
  'server-ends-request': {
    notExercised: 'it needs the server to give up on its work (or end a subscription) at a moment the probe chooses',
  },
  'cancel-races-computed-result': {
    notObservable: "it needs the cancellation to arrive just after the server's work computed its result, which the wire does not show",
  },
  'task-cancel-races-result': {
    notObservable: "it needs the server's task worker to reach a checkpoint as its result is computed, which the wire does not show",
  },
  'http-complete-before-late-cancel': { check: 'ignored-cancellations', role: 'tool' },
  'task-result-within-ttl': {
    notExercised: "it lets a task's work run to the operation's maximum timeout before reading it, longer than a probe waits",
  },
  'stream-drop-reissue': {
    notExercised: 'it judges how the client re-issues a request whose stream broke (its id, Last-Event-ID), not the server',
  },
  // The progress check runs the long tool with a token and judges every value greater than the last.
  'progress-values-increase': { check: 'progress', role: 'tool' },
  'progress-on-request-stream': {
    notExercised: 'it needs a subscriptions/listen stream open beside the request, which the probe does not open',
  },
  'task-progress-stops-at-terminal': {
    notObservable: "it needs the server's task worker to report progress after a terminal status, which the probe cannot bring about",
  },
  'answer-within-one-round-trip': {
    notExercised: "it judges the client's own request timeouts, which a probe of the server does not exercise",
  },
  'progress-at-slowest-pace': { notExercised: "it judges the client's idle clock, which a probe of the server does not exercise" },
};

/** A fixture run against the live server: the four outcomes of a probe check. */
export interface LiveFixtureResult {
  readonly id: string;
  readonly kind: FixtureKind;
  readonly operation: string;
  readonly transport: string;
  readonly status: CheckStatus;
  /** What the check found, or why the fixture was not exercised or cannot be seen live. */
  readonly summary: string;
  /** The probe check that played it, when one did. */
  readonly check?: string;
  readonly transcript: readonly WireEntry[];
}

/** The fixtures of a manifest, judged on the wire by the probe's checks (already run). Pure. */
export function liveFixtureResults(fixtures: readonly Fixture[], report: ProbeReport): LiveFixtureResult[] {
  return fixtures.map((fixture) => {
    const base = { id: fixture.id, kind: fixture.kind, operation: fixture.operation, transport: fixture.transport };
    const unplayed = (status: 'inconclusive' | 'not-observable', summary: string): LiveFixtureResult => ({
      ...base,
      status,
      summary,
      transcript: [],
    });
    const live = LIVE_KINDS[fixture.kind];
    if ('notObservable' in live) return unplayed('not-observable', `not observable live: ${live.notObservable}`);
    if ('notExercised' in live) return unplayed('inconclusive', `not run live: ${live.notExercised}`);
    if (fixture.transport !== report.transport)
      return unplayed('inconclusive', `the fixture is for ${fixture.transport}; the server was probed over ${report.transport}`);
    if (fixture.specVersion !== report.revision)
      return unplayed('inconclusive', `the fixture is for ${fixture.specVersion}; the server speaks ${report.revision}`);
    const called = live.role === 'tool' ? report.plan?.tool : report.plan?.mutation;
    if (called !== fixture.operation)
      return unplayed(
        'inconclusive',
        live.role === 'tool'
          ? `the probe called ${called ?? 'no long-running tool'}, not ${fixture.operation} (name it with --operation)`
          : `the probe called ${called ?? 'no mutation'} with one key${called === null || called === undefined ? ' (that needs --allow-mutations)' : ''}, ` +
              `not ${fixture.operation}`,
      );
    const check: CheckResult | undefined = report.checks.find((candidate) => candidate.id === live.check);
    if (check === undefined) return unplayed('inconclusive', `the probe did not run ${live.check}`);
    const played = { ...base, check: check.id, transcript: check.transcript };
    if (check.status === 'pass') {
      const missing = live.requires?.(observationOf(check, 'client-timeouts') ?? {});
      if (missing !== undefined)
        return { ...played, status: 'inconclusive', summary: `the check passed, but not this scenario: ${missing}` };
    }
    return { ...played, status: check.status, summary: check.summary };
  });
}

/** A live fixture as text: its status, what played it, and the wire transcript of that check. */
export function renderLiveFixture(result: LiveFixtureResult): string {
  const lines = [
    `${STATUS_LABELS[result.status]}  ${result.id}  [${result.transport}, live]`,
    `      ${result.check === undefined ? '' : `played by the probe check ${result.check}: `}${result.summary}`,
    ...result.transcript.map((entry) => `  t=${String(entry.t).padStart(6)}ms ${entry.direction} ${entry.text}`),
  ];
  // What the server sent cannot break out of its line or colour the screen.
  return `${lines.map(displayText).join('\n')}\n`;
}
