/**
 * The probe's verdicts on the hostile server (test/probe/servers/hostile-server.mjs), one case per defect, transport and
 * revision: test/probe/hostile-servers.test.ts runs them all (npm run test:live); test/probe/probe-wiring.test.ts runs
 * one passing and one failing case per transport in npm test.
 */
import { expect } from 'vitest';
import { SESSION_RULES } from '../../src/judges/session-rules.js';
import { check, failing, judgeStatus, type ProbeRun, probeHostile, statuses } from './probe-harness.js';

const S25 = ['stdio', '2025-11-25'] as const;
const S26 = ['stdio', '2026-07-28'] as const;
const H25 = ['http', '2025-11-25'] as const;
const H26 = ['http', '2026-07-28'] as const;
/** The probe speaks 2026-07-28 over stdio only when asked. */
const ASK_2026 = ['--spec-version', '2026-07-28'];
const QUICK = ['--grace', '300'];

export interface Case {
  readonly defect: string;
  readonly on: readonly ['stdio' | 'http', string];
  readonly args?: readonly string[];
  readonly exit: 0 | 1 | 3;
  /** Exactly the checks that fail, each with the reason it must give; '*' is one check, whichever met the defect first. */
  readonly fails: Readonly<Record<string, RegExp>>;
  /** The probe ends within this (the defect is known at once). */
  readonly withinMs?: number;
  readonly also?: (run: ProbeRun) => void;
}

/** Checks after the one a connection-ending defect hit are inconclusive with its reason, never failed. */
const skippedWith = (reason: RegExp, after: string) => (run: ProbeRun) => {
  const ids = run.report.checks.map((entry) => entry.id);
  for (const entry of run.report.checks.slice(ids.indexOf(after) + 1, -1)) {
    expect(entry.status, entry.id).toBe(entry.id === 'sse-headers' || entry.id === 'get-405' ? entry.status : 'inconclusive');
    if (entry.status === 'inconclusive') expect(entry.summary, entry.id).toMatch(reason);
  }
};

/** The other checks that call the tool are inconclusive with the reason it could not be called. */
const toolChecksSkipped = (reason: RegExp) => (run: ProbeRun) => {
  for (const id of ['cancel-before-completion', 'client-timeouts']) {
    expect(check(run.report, id).status, id).toBe('inconclusive');
    expect(check(run.report, id).summary, id).toMatch(reason);
  }
};

/**
 * After a stall, the later checks that call the tool do not wait a full limit again: the cancellation watches the grace
 * period (300 ms) and calls its silence uninformative; the timeouts are not played.
 */
const notWaitedAgain = (limitMs: number) => (run: ProbeRun) => {
  expect(statuses(run.report)).toMatchObject({ 'cancel-before-completion': 'inconclusive', 'client-timeouts': 'inconclusive' });
  expect(check(run.report, 'cancel-before-completion').summary).toMatch(/its silence shows nothing about the cancellation/);
  expect(check(run.report, 'client-timeouts').summary).toMatch(
    new RegExp(`^not exercised again: slow_job never answered within ${limitMs} ms in progress`),
  );
  expect(check(run.report, 'cancel-before-completion').durationMs).toBeLessThan(3000);
  expect(check(run.report, 'client-timeouts').durationMs).toBeLessThan(100);
};

/** The hostile server's defects, each on the transports and revisions it applies to, with the probe's verdict. */
export const CASES: Readonly<Record<string, Case>> = {
  // Well-behaved, on every transport and revision.
  'none over stdio (2025-11-25)': { defect: 'none', on: S25, exit: 0, fails: {} },
  'none over stdio (2026-07-28, asked for)': {
    defect: 'none',
    on: S26,
    args: ASK_2026,
    exit: 0,
    fails: {},
    also: ({ report }) => expect([report.revision, report.requestedRevision]).toEqual(['2026-07-28', '2026-07-28']),
  },
  'none over HTTP (2025-11-25: server/discover refused, falls back)': {
    defect: 'none',
    on: H25,
    exit: 0,
    fails: {},
    also: ({ report }) => {
      expect(report.revision).toBe('2025-11-25');
      expect(check(report, 'revision').details.join(' ')).toMatch(/the server refused server\/discover \(-32601 Method not found\)/);
    },
  },
  'none over HTTP (2026-07-28: closing the stream cancels)': {
    defect: 'none',
    on: H26,
    exit: 0,
    fails: {},
    also: ({ report }) => {
      expect(report.revision).toBe('2026-07-28');
      const cancel = check(report, 'cancel-before-completion');
      expect(cancel.transcript.some((entry) => /^\[closes the response stream of request \d+\]$/.test(entry.text))).toBe(true);
      expect(cancel.transcript.some((entry) => entry.text.includes('notifications/cancelled'))).toBe(false);
    },
  },

  // Messages after a cancellation, on both sides of the in-flight allowance.
  'response-after-cancel over stdio': {
    defect: 'response-after-cancel',
    on: S25,
    exit: 1,
    fails: {
      'cancel-before-completion': /^the server sent .*a response \d+ ms after request \d+.* after the cancellation$/,
      // The maximum is played inside the run (half of it), so the client's timeout meets the defect too.
      'client-timeouts': /^the maximum timeout fired \d+ ms after the request .*; the server sent .*a response .* after the cancellation$/,
    },
    also: ({ report }) =>
      expect(check(report, 'client-timeouts').details.join(' ')).toMatch(/the maximum is played at \d+ ms, half the run/),
  },
  // It answers on the cancelled request's stream every 200 ms for 2 s. One answer 200 ms after the cancellation is within
  // the in-flight allowance a loaded machine measures (twice the slowest round trip, 100 ms to 1 s, plus what held the
  // probe up), so the probe rightly calls it crossed (tabled in test/probe/checks/silence-rows.ts); the later answers
  // are past any allowance. Those that come after the check ended fail it after the fact ("after its cancellation").
  'response-after-cancel over HTTP (2025-11-25): answers on its stream for 2 s after the cancellation': {
    defect: 'response-after-cancel',
    on: H25,
    exit: 1,
    fails: {
      'cancel-before-completion': /^the server sent .*a response \d+ ms after request \d+.* after (the|its) cancellation$/,
      'client-timeouts': /the server sent .*a response \d+ ms after request \d+.* after (the|its) cancellation$/,
    },
  },
  'progress-after-cancel over stdio (2026-07-28)': {
    defect: 'progress-after-cancel',
    on: S26,
    args: ASK_2026,
    exit: 1,
    fails: {
      'cancel-before-completion': /^the server sent .*progress 1\d \d+ ms after request \d+.* after the cancellation$/,
      'client-timeouts': /; the server sent .*progress 1\d .* after the cancellation$/,
    },
  },
  'progress-after-cancel over HTTP (2025-11-25: the cancellation is POSTed)': {
    defect: 'progress-after-cancel',
    on: H25,
    exit: 1,
    fails: {
      'cancel-before-completion': /^the server sent .*progress 1\d .* after the cancellation$/,
      'client-timeouts': /; the server sent .*progress 1\d .* after the cancellation$/,
    },
  },
  'in-flight-progress over stdio: what crosses the cancellation is allowed': {
    defect: 'in-flight-progress',
    on: S25,
    exit: 0,
    fails: {},
    also: ({ report }) =>
      expect(check(report, 'cancel-before-completion').details.join(' ')).toMatch(
        /in-flight allowance: \d+ ms after the cancellation .*; [1-9]\d* messages? crossed it on the wire/,
      ),
  },
  'in-flight-progress over HTTP (2025-11-25)': { defect: 'in-flight-progress', on: H25, exit: 0, fails: {} },
  'cross-stream over HTTP (2026-07-28): a closed request written into the next stream': {
    defect: 'cross-stream',
    on: H26,
    exit: 1,
    fails: {
      'cancel-before-completion': /^the server kept writing for the cancelled request \d+ on the response stream of request \d+: progress/,
    },
  },
  'held-for-next-stream over HTTP (2026-07-28): what was held for a closed request and written later, on a later stream, fails': {
    defect: 'held-for-next-stream',
    on: H26,
    exit: 1,
    fails: {
      // Written into the stream of the check's own last request (its health check), after the watch: still its failure.
      'cancel-before-completion': /^the server kept writing for the cancelled request \d+ on the response stream of request \d+: progress/,
      'client-timeouts': /the server (kept writing for|sent .*for) the cancelled request \d+/,
    },
    // What came late is part of what the check observed: the claims are judged on it.
    also: ({ report }) => {
      const observed = check(report, 'client-timeouts').observed ?? {};
      expect(observed['progressAfterCancel'] === true || observed['resultAfterCancel'] === true, JSON.stringify(observed)).toBe(true);
    },
  },

  // Progress itself.
  'non-monotonic-progress over HTTP (2026-07-28)': {
    defect: 'non-monotonic-progress',
    on: H26,
    exit: 1,
    fails: { progress: /^progress 2 follows 3: not strictly increasing$/ },
  },
  'many-progress over stdio: 6 000 legal notifications, then the response (never dropped)': {
    defect: 'many-progress',
    on: S25,
    exit: 0,
    fails: {},
    also: ({ report }) => {
      expect(check(report, 'progress').summary).toBe("6000 increasing values with the request's token, none after the response");
      expect(check(report, 'progress').details.join(' ')).toMatch(/coalesced to keep the probe's queue bounded/);
    },
  },
  'many-progress over HTTP (2025-11-25)': { defect: 'many-progress', on: H25, exit: 0, fails: {} },

  // Exact matching.
  'string-id over stdio: "3" does not answer 3': {
    defect: 'string-id',
    on: S25,
    exit: 1,
    fails: {
      progress:
        /^the server sent a response with the id "(\d+)" \(a string\) to request \1 \(an integer\): ids must match in type and value$/,
    },
    also: toolChecksSkipped(/^not run: slow_job could not be called: the server sent a response with the id "\d+" \(a string\)/),
  },
  'string-id over HTTP (2026-07-28)': {
    defect: 'string-id',
    on: H26,
    exit: 1,
    fails: { progress: /ids must match in type and value$/ },
  },
  // The progress check meets the repeat; the later runs are cancelled before they answer (twice).
  'double-response over stdio': {
    defect: 'double-response',
    on: S25,
    exit: 1,
    fails: { progress: /^1 more response after the first$/ },
  },
  'double-response over HTTP (2025-11-25)': {
    defect: 'double-response',
    on: H25,
    exit: 1,
    fails: { progress: /^1 more response/ },
  },
  'unknown-id-response over HTTP (2025-11-25)': {
    defect: 'unknown-id-response',
    on: H25,
    exit: 1,
    fails: { wire: /^during progress, the server sent a response to the unknown request id 999999 \(an integer\)$/ },
  },
  'error-to-cancellation over stdio: each answer blamed on its own cancellation': {
    defect: 'error-to-cancellation',
    on: S25,
    exit: 1,
    fails: {
      'cancel-before-completion':
        /^the server answered the cancellation \(a notification gets no response\): an error response with id null/,
      'client-timeouts': /; the server answered the cancellation \(a notification gets no response\): an error response with id null/,
      'ignored-cancellations': /^a cancellation of a request that already completed: answered with an error response with id null/,
    },
  },
  'error-to-cancellation over HTTP (2025-11-25): the POST of the cancellation answered 400': {
    defect: 'error-to-cancellation',
    on: H25,
    exit: 1,
    fails: {
      'cancel-before-completion': /^the server answered the cancellation .*: HTTP 400/,
      'client-timeouts': /the server answered the cancellation .*: HTTP 400/,
      'ignored-cancellations': /answered with HTTP 400/,
    },
  },
  // Judged by content: an error that answers the cancellation came after it, however soon.
  'cancelled-error over stdio: -32800 5 ms after the cancellation is an answer to it, not a message in flight': {
    defect: 'cancelled-error',
    on: S25,
    exit: 1,
    fails: {
      'cancel-before-completion':
        /^the server sent an error response \d+ ms after request \d+ that answers the cancellation after the cancellation$/,
      'client-timeouts':
        /; the server sent an error response \d+ ms after request \d+ that answers the cancellation after the cancellation$/,
    },
  },
  'cancelled-error over HTTP (2025-11-25)': {
    defect: 'cancelled-error',
    on: H25,
    exit: 1,
    fails: { 'cancel-before-completion': /that answers the cancellation/, 'client-timeouts': /that answers the cancellation/ },
  },
  'late-error-to-cancellation over stdio: the leftover answer is judged where it belongs': {
    defect: 'late-error-to-cancellation',
    on: S25,
    exit: 1,
    fails: {
      'cancel-before-completion':
        /^the server answered its notifications\/cancelled \(a notification gets no response\): an error response with id null/,
    },
    also: ({ report }) => expect(check(report, 'client-timeouts').status).toBe('pass'),
  },

  // The probe's limits are the probe's: a run that outlasts them is inconclusive, never the server's failure. A run that
  // went quiet is recorded as a stall: the later checks do not wait for it again (its silence would show nothing).
  'stall over stdio: the probe gives up and cancels, says it was its own limit, and does not wait for the tool again': {
    defect: 'stall',
    on: S25,
    args: ['--max-timeout', '1000', '--max-time', '12500'],
    // Nothing in flight was judged: the tool's silence after a cancellation is the silence it keeps anyway.
    exit: 3,
    fails: {},
    also: (run) => {
      const { report } = run;
      const progress = check(report, 'progress');
      expect(progress.status).toBe('inconclusive');
      expect(progress.summary).toMatch(/^slow_job had not finished after 5000 ms, the probe's limit for one run .*raise --max-time/);
      expect(progress.details).toContain('the probe cancelled the request with notifications/cancelled');
      expect(
        progress.transcript.some((entry) => entry.direction === '→' && entry.text.includes('"method":"notifications/cancelled"')),
      ).toBe(true);
      // Quiet for less than the idle timeout (10 s): recorded as a stall, not failed.
      expect(report.stall).toMatchObject({ tool: 'slow_job', check: 'progress', limitMs: 5000, progress: 1, idleMs: 10_000 });
      notWaitedAgain(5000)(run);
    },
  },
  'stall over HTTP (2026-07-28): giving up closes the stream': {
    defect: 'stall',
    on: H26,
    args: ['--max-timeout', '1000', '--max-time', '12500'],
    // Nothing passed: the run outlasted the probe, and what follows a closed stream cannot be seen.
    exit: 3,
    fails: {},
    also: ({ report }) => {
      expect(report.inconclusive).toMatch(/^no request in flight was judged: slow_job had not finished after 5000 ms/);
      expect(statuses(report)).toMatchObject({ 'cancel-before-completion': 'not-observable', 'client-timeouts': 'inconclusive' });
      expect(check(report, 'progress').status).toBe('inconclusive');
      expect(check(report, 'progress').details).toContain('the probe cancelled the request with the closing of its stream');
    },
  },
  // A tool that never answers and sends nothing, quiet past the idle timeout played: a host gives up on every call.
  'never-answers over stdio: the progress check fails it, the later checks do not wait again': {
    defect: 'never-answers',
    on: S25,
    args: ['--idle-timeout', '2000', '--max-time', '12500'],
    exit: 1,
    fails: {
      progress:
        /^slow_job never answered: no response within 5000 ms, and nothing at all for the last 5000 ms, past the idle timeout of 2000 ms \(the command line\)/,
    },
    also: (run) => {
      expect(run.report.stall).toMatchObject({ tool: 'slow_job', limitMs: 5000, silentMs: 5000, progress: 0, idleMs: 2000 });
      expect(check(run.report, 'client-timeouts').summary).toMatch(/the idle timeout \(2000 ms\) ends every call of it/);
      notWaitedAgain(5000)(run);
    },
  },
  'never-answers over HTTP (2025-11-25)': {
    defect: 'never-answers',
    on: H25,
    args: ['--idle-timeout', '2000', '--max-time', '12500'],
    exit: 1,
    fails: { progress: /^slow_job never answered: no response within 5000 ms/ },
    also: notWaitedAgain(5000),
  },
  'crash over stdio': {
    defect: 'crash',
    on: S25,
    exit: 1,
    withinMs: 8000,
    fails: { progress: /^the server process exited \(code 7\)$/ },
    also: skippedWith(/^not run: the server process exited \(code 7\)$/, 'progress'),
  },
  'killed over stdio (2026-07-28)': {
    defect: 'killed',
    on: S26,
    args: ASK_2026,
    exit: 1,
    withinMs: 8000,
    fails: { progress: /^the server process exited \(signal SIGKILL\)$/ },
  },
  'crash over HTTP (2025-11-25)': {
    defect: 'crash',
    on: H25,
    exit: 1,
    withinMs: 8000,
    fails: { progress: /^the server stopped: the response stream of request \d+ broke and 127\.0\.0\.1:\d+ now refuses connections$/ },
    also: skippedWith(/^not run: the server stopped/, 'progress'),
  },
  'killed over HTTP (2026-07-28)': { defect: 'killed', on: H26, exit: 1, withinMs: 8000, fails: { progress: /^the server stopped/ } },
  // Past the progress check's own watch: only the session's judge sees it, and its failure is the progress check's.
  'late-progress-after-response over stdio: the judge of the session fails the check of its rule': {
    defect: 'late-progress-after-response',
    on: S25,
    exit: 1,
    fails: {
      progress: new RegExp(
        '^judged on the session: progress for tools/call slow_job \\(id \\d+\\) \\d+ ms after its final response ' +
          '\\(judge server-progress-for-active-requests, session message \\d+\\)$',
      ),
    },
    also: ({ report }) => expect(judgeStatus(report, 'server-progress-for-active-requests')).toBe('fail'),
  },
  // Every progress notification written only with the answer (a buffering layer): the progress check fails through its judge.
  ...Object.fromEntries(
    [S25, H25].map((on) => [
      `held-progress over ${on[0]} (${on[1]}): progress held back until the answer fails the progress check`,
      {
        defect: 'held-progress',
        on,
        exit: 1 as const,
        fails: {
          progress:
            /^judged on the session: all 4 progress notification\(s\) for tools\/call slow_job \(id \d+\) arrived within \d+ ms of its answer/,
        },
        also: ({ report }: ProbeRun) => expect(judgeStatus(report, 'server-streams-progress')).toBe('fail'),
      },
    ]),
  ),
  'flood over stdio': {
    defect: 'flood',
    on: S25,
    exit: 1,
    withinMs: 15_000,
    // The session's judge of tokens fails on the same messages (progress for a token no request carried).
    also: ({ report }) => expect(judgeStatus(report, 'server-progress-for-active-requests')).toBe('fail'),
    fails: {
      // Both are true reasons: which comes first depends on how fast the flood reaches the probe on a loaded machine.
      '*': /the server flooded the probe with over 100000 messages$|^the server sent progress for the unknown token "x"$/,
      // As many as reached the probe before that phase ended: one, on a fast start (Node 24 in CI), or thousands.
      wire: /^during [a-z-]+, the server sent progress for the unknown token "x"( \(\d+ times\))?$/,
    },
  },
  'flood over HTTP (2025-11-25)': {
    defect: 'flood',
    on: H25,
    exit: 1,
    withinMs: 15_000,
    fails: { '*': /the server flooded the probe with over 100000 messages$/, wire: /unknown token "x" \(\d+ times\)$/ },
  },
  'status-500 over HTTP (2025-11-25)': {
    defect: 'status-500',
    on: H25,
    exit: 1,
    withinMs: 8000,
    fails: { progress: /^the server answered HTTP 500: boom$/ },
    also: toolChecksSkipped(/^not run: slow_job could not be called: the server answered HTTP 500: boom$/),
  },
  'not-json over HTTP (2026-07-28)': {
    defect: 'not-json',
    on: H26,
    exit: 1,
    withinMs: 8000,
    fails: { progress: /^the response body is not JSON: "this is not json"$/, wire: /not JSON-RPC in response bodies/ },
  },
  'huge-body over HTTP (2025-11-25): 50 MB is not read': {
    defect: 'huge-body',
    on: H25,
    exit: 1,
    withinMs: 8000,
    fails: { progress: /^the server sent a response body over 4194304 bytes$/ },
  },
  'huge-sse-line over HTTP (2026-07-28)': {
    defect: 'huge-sse-line',
    on: H26,
    exit: 1,
    withinMs: 8000,
    fails: { progress: /^the server sent an SSE event or line over 1048576 characters$/ },
  },
  'no-headers over HTTP (2025-11-25): waiting for headers is bounded': {
    defect: 'no-headers',
    on: H25,
    exit: 1,
    withinMs: 25_000,
    fails: { progress: /^no response headers within 10000 ms$/ },
    also: ({ report }) => {
      const progress = check(report, 'progress');
      expect(progress.details).toContain('the probe cancelled the request with notifications/cancelled');
      expect(check(report, 'ignored-cancellations').status).toBe('pass');
    },
  },
  'missing-sse-headers over HTTP (2025-11-25)': {
    defect: 'missing-sse-headers',
    on: H25,
    exit: 1,
    fails: { 'sse-headers': /^the SSE response lacks Cache-Control: no-cache, X-Accel-Buffering: no$/ },
  },
  'garbage-after-handshake over stdio: non-JSON on stdout fails': {
    defect: 'garbage-after-handshake',
    on: S25,
    exit: 1,
    fails: { wire: /^the server wrote \d+ message\(s\) that are not JSON-RPC on stdout .*MUST NOT.*"debug: listed the tools"$/ },
  },

  // What the probe calls.
  'destructive-first over stdio: the read-only tool is chosen, the destructive one never called': {
    defect: 'destructive-first',
    on: S25,
    exit: 0,
    fails: {},
    also: ({ report }) => {
      expect(report.plan?.tool).toBe('slow_report');
      expect(report.plan?.why).toMatch(/read-only by its annotations/);
      expect(report.stderr ?? '').not.toMatch(/PURGED/);
      const sent = report.checks.flatMap((entry) => entry.transcript).filter((entry) => entry.direction === '→');
      expect(sent.some((entry) => entry.text.includes('purge_long_term_storage') || entry.text.includes('count_along_the_way'))).toBe(
        false,
      );
    },
  },
  'no-safe-tools over HTTP (2026-07-28): nothing exercised is inconclusive, not a pass (exit 3)': {
    defect: 'no-safe-tools',
    on: H26,
    exit: 3,
    fails: {},
    also: ({ report }) => {
      expect(report.plan?.tool).toBeNull();
      expect(report.inconclusive).toMatch(
        /^no request in flight was judged: no long-running tool: no listed tool is known to be read-only/,
      );
      expect(statuses(report)).toMatchObject({
        progress: 'inconclusive',
        'cancel-before-completion': 'inconclusive',
        'client-timeouts': 'inconclusive',
      });
    },
  },

  // The revision actually negotiated.
  '--spec-version 2026-07-28 against a 2025-only server over stdio': {
    defect: 'none',
    on: S25,
    args: ASK_2026,
    exit: 1,
    fails: {
      revision:
        /^asked for 2026-07-28, but the server refused server\/discover .*: it does not speak 2026-07-28; probed 2025-11-25 instead$/,
    },
    also: ({ report }) => expect([report.revision, report.requestedRevision]).toEqual(['2025-11-25', '2026-07-28']),
  },
  '--spec-version 2026-07-28 against a 2025-only server over HTTP': {
    defect: 'none',
    on: H25,
    args: ASK_2026,
    exit: 1,
    fails: { revision: /^asked for 2026-07-28, but .*probed 2025-11-25 instead$/ },
  },
};

/** Probes the hostile server with the case's defect and asserts the verdict: exactly the failing checks, their reasons, the exit. */
export async function probeCase(test: Case): Promise<void> {
  const run = await probeHostile(test.defect, test.on[0], test.on[1], [...QUICK, ...(test.args ?? [])]);
  const failed = failing(run.report);
  const named = Object.keys(test.fails).filter((id) => id !== '*');
  const others = Object.keys(failed).filter((id) => !named.includes(id));
  expect(Object.keys(failed).length, JSON.stringify(failed, null, 1)).toBe(Object.keys(test.fails).length);
  for (const id of named) expect(failed[id], JSON.stringify(failed, null, 1)).toMatch(test.fails[id]!);
  if (test.fails['*'] !== undefined) expect(failed[others[0]!]).toMatch(test.fails['*']);
  // Each failure says what to change.
  for (const entry of run.report.checks.filter((candidate) => candidate.status === 'fail')) expect(entry.fix, entry.id).toMatch(/^[a-z]/);
  // The session's judges ran (whenever the probe started) and agree: a server no check faults, no judge faults either.
  if (run.report.startedOk)
    expect(run.report.session?.judgements.length).toBe(SESSION_RULES.filter((rule) => rule.tags.includes('server')).length);
  if (Object.keys(test.fails).length === 0)
    expect(run.report.session?.judgements.filter((one) => one.status === 'fail').map((one) => one.summary)).toEqual([]);
  expect(run.status).toBe(test.exit);
  expect(run.ms).toBeLessThan(test.withinMs ?? 60_000);
  test.also?.(run);
}
