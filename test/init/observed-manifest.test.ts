// init --observe from recorded probe runs, in process: the typed observations (src/live/probe-observations.ts) of each
// tool's run to the manifest text; what was seen written with its comment and day, the rest DECIDE with why; the text
// lints without a placeholder or schema error, and drift of it against the same runs contradicts nothing.
import { describe, expect, it } from 'vitest';
import { lint } from '../../src/api/lint.js';
import { roundedInterval } from '../../src/init/claim-proposals.js';
import { observationPlan } from '../../src/init/observation-plan.js';
import { observedManifest, type ToolObservation } from '../../src/init/observed-manifest.js';
import type { ObservationsByCheck } from '../../src/live/probe-observations.js';
import { wireClaims } from '../../src/live/wire-claims.js';
import { loadManifest, type LoadedManifest } from '../../src/manifest/load.js';
import { driftFindings } from '../../src/probe/drift.js';
import type { CheckResult, CheckStatus, ProbeReport } from '../../src/probe/probe-types.js';
import type { ToolSummary } from '../../src/probe/tool-summary.js';
import type { WireEntry } from '../../src/probe/wire-log.js';

const DAY = '2026-12-05';
const READ_ONLY = { readOnlyHint: true, destructiveHint: false };
const TOOLS: readonly ToolSummary[] = [
  { name: 'slow_report', description: 'Builds a report, reporting progress.', annotations: READ_ONLY },
  { name: 'quick_read', annotations: READ_ONLY },
  { name: 'stuck_read', annotations: READ_ONLY },
  { name: 'delete_row', annotations: { readOnlyHint: false, destructiveHint: true } },
];

/** A check of a run that observed nothing typed (revision, tools, headers). */
function plain(id: string, status: CheckStatus, summary: string): CheckResult {
  return { id, title: id, basis: '', status, summary, details: [], transcript: [], durationMs: 0 };
}

/** A check of a run, with its typed observation. */
function check<Id extends keyof ObservationsByCheck>(
  id: Id,
  status: CheckStatus,
  summary: string,
  observed?: ObservationsByCheck[Id],
  transcript: readonly WireEntry[] = [],
): CheckResult {
  return { ...plain(id, status, summary), transcript, ...(observed === undefined ? {} : { observed }) };
}

/** Progress notifications at these times (ms), as the probe's transcript holds them. */
function progressAt(times: readonly number[]): WireEntry[] {
  return times.map((t, index) => ({
    t,
    direction: '←',
    text: `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":${index + 1}}}`,
  })) as WireEntry[];
}

/** One probe run of `tool` over `transport`: the server's checks, and the tool's. */
function run(tool: string, checks: readonly CheckResult[], transport: 'stdio' | 'streamable-http' = 'stdio'): ProbeReport {
  const http = transport === 'streamable-http';
  return {
    version: 3,
    target: 'node server.mjs',
    transport,
    revision: '2025-11-25',
    startedOk: true,
    plan: { tool, why: 'named with --operation', mutation: null, taskTool: null },
    tools: TOOLS,
    observations: [],
    checks: [
      plain('revision', 'pass', 'the server speaks 2025-11-25'),
      plain('tools', 'pass', `${TOOLS.length} tools listed`),
      ...checks,
      check('ignored-cancellations', 'pass', 'all four were ignored and the server still answers'),
      plain(
        'sse-headers',
        http ? 'pass' : 'not-observable',
        http ? 'every SSE response carried the three headers' : 'stdio has no HTTP headers to see',
      ),
      plain('get-405', http ? 'pass' : 'not-observable', http ? 'GET was answered 405' : 'stdio has no HTTP endpoint to send a GET to'),
      plain('wire', 'pass', 'every message was JSON-RPC'),
    ],
  };
}

/** slow_report: progress every ~250 ms, and after a cancellation it goes on sending progress (no response). */
const slowReport = (transport?: 'stdio' | 'streamable-http') =>
  run(
    'slow_report',
    [
      check(
        'progress',
        'pass',
        "5 increasing values with the request's token, none after the response",
        { completed: true, progress: 5, durationMs: 1262 },
        progressAt([10, 262, 508, 760, 1011]),
      ),
      check('cancel-before-completion', 'fail', 'the server sent progress 2 after the cancellation', {
        signal: 'notification',
        watchedMs: 1500,
        toNaturalEnd: true,
        progressBeforeCancel: 1,
        progressAfterCancel: true,
        resultAfterCancel: false,
        answeredCancellation: false,
      }),
      check('client-timeouts', 'pass', 'no timeout fired', { fired: 'none', progress: 5 }),
    ],
    transport,
  );

/** quick_read: answers at once, no progress, nothing to cancel. */
const quickRead = run('quick_read', [
  check('progress', 'inconclusive', 'quick_read answered in 4 ms and sent no progress (a server may send none): no progress to judge', {
    completed: true,
    progress: 0,
    durationMs: 4,
  }),
  plain('cancel-before-completion', 'inconclusive', 'quick_read answered 3 ms after the request, before a cancellation could be sent'),
]);

/** stuck_read: never answers within the probe's limit. */
const stuckRead = run('stuck_read', [
  check(
    'progress',
    'inconclusive',
    "stuck_read had not finished after 24000 ms, the probe's limit for one run (two fifths of --max-time, at most 65 s)",
    { completed: false, progress: 0 },
  ),
  // Silence after the cancellation: no response could come from a tool that never answers.
  check('cancel-before-completion', 'pass', 'nothing for the cancelled request in the 1000 ms after the cancellation', {
    signal: 'notification',
    watchedMs: 1000,
    toNaturalEnd: false,
    progressBeforeCancel: 0,
    progressAfterCancel: false,
    resultAfterCancel: false,
    answeredCancellation: false,
  }),
]);

function written(observations: readonly ToolObservation[], transport: 'stdio' | 'streamable-http' = 'stdio'): string {
  return observedManifest({
    serverName: 'reports',
    specVersion: '2025-11-25',
    transport,
    source: 'node server.mjs',
    tools: TOOLS,
    observations,
    day: DAY,
  });
}

const OBSERVED: readonly ToolObservation[] = [
  { tool: 'slow_report', report: slowReport() },
  { tool: 'quick_read', report: quickRead },
  { tool: 'stuck_read', report: stuckRead },
  { tool: 'delete_row', notProbed: 'it may change state (its annotations say destructiveHint: true): --allow-mutations calls it' },
];

function load(text: string): LoadedManifest {
  const loaded = loadManifest('observed.yaml', new TextEncoder().encode(text));
  if (!loaded.ok) throw new Error(loaded.problems.map((problem) => problem.message).join('; '));
  return loaded;
}

/** quick_read's entry in what init writes after this run of it. */
function quickReadAfter(report: ProbeReport): string {
  return operationLines(written([{ tool: 'quick_read', report }]), 'quick_read');
}

/** The lines of one operation's entry in the text. */
function operationLines(text: string, name: string): string {
  const from = text.indexOf(`  - name: ${name}\n`);
  const next = text.indexOf('\n  - name: ', from + 1);
  return text.slice(from, next < 0 ? undefined : next);
}

describe('init --observe: what was seen is the claim, with its observation and day', () => {
  const text = written(OBSERVED);
  const slow = operationLines(text, 'slow_report');

  it.each([
    ['the revision', 'specVersion: "2025-11-25" # seen on the wire 2026-12-05: the server speaks 2025-11-25', text],
    ['that it sends progress', 'emits: true # seen on the wire 2026-12-05: 5 progress notifications in a run of 1262 ms', slow],
    [
      'how often, as a round figure',
      'minIntervalMs: 250 # seen on the wire 2026-12-05: progress about every 250 ms (median gap 252 ms)',
      slow,
    ],
    [
      'work going on after a cancellation',
      'stopsWork: never # seen on the wire 2026-12-05: the server sent progress 2 after the cancellation',
      slow,
    ],
    [
      'no answer after a cancellation',
      'suppressResponseAfterCancel: true # seen on the wire 2026-12-05: no response came for the cancelled request in the 1500 ms watched',
      slow,
    ],
    [
      'late cancellations ignored',
      'invalidOrLate: ignore # seen on the wire 2026-12-05: all four were ignored and the server still answers',
      slow,
    ],
    [
      'no progress from a quick tool',
      'emits: false # seen on the wire 2026-12-05: no progress notifications in a run of 4 ms',
      operationLines(text, 'quick_read'),
    ],
  ])('%s', (_what, line, where) => {
    expect(where).toContain(line);
  });

  it('what no probe can see stays DECIDE, saying why', () => {
    expect(slow).toContain('# DECIDE retry, idempotency: not observable on the wire: whether a retry repeats the side effect');
    expect(slow).toContain("timeouts: {} # TODO: idleMs and maxMs, the client's limits: not observable on the wire (a run took 1262 ms)");
    // A silent cancelled request does not show its work stopped: wire-claims' own reason.
    const quick = operationLines(text, 'quick_read');
    expect(quick).toMatch(
      new RegExp(
        '# DECIDE cancellation\\.stopsWork, cancellation\\.suppressResponseAfterCancel: not seen on the wire: ' +
          'quick_read answered 3 ms after the request, before a cancellation could be sent\n',
      ),
    );
    expect(quick).not.toContain('minIntervalMs');
  });

  it('a tool that stalled keeps DECIDE, saying what happened', () => {
    const stuck = operationLines(text, 'stuck_read');
    expect(stuck).toContain(
      '# DECIDE progress.emits, cancellation.stopsWork, cancellation.suppressResponseAfterCancel: not seen on the wire: ' +
        "stuck_read had not finished after 24000 ms, the probe's limit for one run",
    );
    expect(stuck).not.toMatch(/^ +(progress|stopsWork|suppressResponseAfterCancel):/m);
    expect(stuck).toContain('invalidOrLate: ignore # seen on the wire 2026-12-05: all four were ignored');
  });

  it('a field inferred from the description and seen on the wire is no longer unverified', () => {
    expect(written([]).includes('progress: { emits: true } # unverified: its description says it reports progress')).toBe(true);
    expect(slow).toContain('x-mcprely-unverified: [ sideEffect ]\n');
    expect(slow).not.toContain('its description says');
  });

  it("the server's words stay on their comment line, control characters escaped", () => {
    const hostile = run('quick_read', [
      check('progress', 'inconclusive', 'quick_read answered with a tool error: bad\n  - name: injected\u001b[2J\u202e', {
        completed: false,
        progress: 0,
      }),
    ]);
    const text = written([{ tool: 'quick_read', report: hostile }]);
    expect(text).toContain('not seen on the wire: quick_read answered with a tool error: bad - name: injected\\u001b[2J\\u202e\n');
    expect(load(text).manifest.operations.map((operation) => operation.name)).toEqual(TOOLS.map((tool) => tool.name));
  });

  it('a proposal drift would contradict is not written: progress on the wire that the run did not count', () => {
    // The observation counted no progress for the call's token, but the transcript shows one: drift's own reading.
    const noneCounted = { completed: true, progress: 0, durationMs: 4 };
    const stray = run('quick_read', [
      check('progress', 'inconclusive', 'quick_read answered in 4 ms and sent no progress', noneCounted, progressAt([2])),
    ]);
    const quick = quickReadAfter(stray);
    expect(quick).not.toContain('emits: false');
    expect(quick).toContain(
      '# DECIDE progress.emits: the wire contradicts what it showed: quick_read answered in 4 ms and sent no progress',
    );
  });

  it('two progress notifications: no interval, DECIDE saying why', () => {
    const twice = run('quick_read', [
      check(
        'progress',
        'pass',
        "2 increasing values with the request's token",
        { completed: true, progress: 2, durationMs: 300 },
        progressAt([100, 200]),
      ),
    ]);
    const quick = quickReadAfter(twice);
    expect(quick).toContain('emits: true # seen on the wire 2026-12-05: 2 progress notifications in a run of 300 ms');
    expect(quick).toContain(
      '# DECIDE progress.minIntervalMs: not seen on the wire: fewer than three progress notifications: no interval could be measured',
    );
  });

  it('a tool the probe ran as a task: how tasks/cancel ended it; over stdio a disconnect is not observable', () => {
    const tools: ToolSummary[] = [{ name: 'slow_task', annotations: READ_ONLY, taskSupport: 'required' }];
    const tasks = check('tasks', 'pass', 'the task was created, polled to completed, and tasks/cancel cancelled the second', {
      created: true,
      polls: 4,
      terminal: 'completed',
      resultRetrieved: true,
      cancelStatus: 'cancelled',
      firstAfterCancel: 'cancelled',
      afterCancel: 'cancelled',
      disconnect: 'not-observable',
    });
    const report: ProbeReport = {
      ...run('slow_task', [tasks]),
      tools,
      plan: { tool: 'slow_task', why: '', mutation: null, taskTool: 'slow_task' },
    };
    const text = observedManifest({
      serverName: 't',
      specVersion: '2025-11-25',
      transport: 'stdio',
      source: 's',
      tools,
      observations: [{ tool: 'slow_task', report }],
      day: DAY,
    });
    expect(text).toContain(
      'cancel: immediate-terminal # seen on the wire 2026-12-05: tasks/cancel answered cancelled, the next tasks/get showed cancelled',
    );
    expect(text).toContain(
      '# DECIDE task.survivesDisconnect: not observable on the wire: over stdio a new connection is a new process, a new server',
    );
    expect(driftFindings(load(text), report)).toEqual([]);
    // Acknowledged, then cancelled at a checkpoint.
    const later = { ...tasks, observed: { ...tasks.observed, cancelStatus: 'acknowledged', firstAfterCancel: 'working' } } as CheckResult;
    const checkpoint: ProbeReport = { ...report, checks: report.checks.map((entry) => (entry.id === 'tasks' ? later : entry)) };
    expect(
      observedManifest({
        serverName: 't',
        specVersion: '2025-11-25',
        transport: 'stdio',
        source: 's',
        tools,
        observations: [{ tool: 'slow_task', report: checkpoint }],
        day: DAY,
      }),
    ).toContain(
      'cancel: acknowledge-then-checkpoint # seen on the wire 2026-12-05: tasks/cancel was acknowledged, the next tasks/get showed working',
    );
  });

  it('a probe that could not start leaves every claim of its tool open, saying why', () => {
    const refused: ProbeReport = { ...quickRead, startedOk: false, problem: 'the server exited before it answered initialize' };
    expect(quickReadAfter(refused)).toContain(
      '# DECIDE the claims the probe can see: its probe could not start: the server exited before it answered initialize\n',
    );
  });

  it('with no tool to call, a run that called none still shows the server', () => {
    const serverOnly: ProbeReport = {
      ...run('', []),
      plan: { tool: null, why: 'no listed tool is known to be read-only', mutation: null },
    };
    const text = written([{ tool: '', report: serverOnly }, ...OBSERVED.filter((entry) => 'notProbed' in entry)]);
    expect(text).toContain('specVersion: "2025-11-25" # seen on the wire 2026-12-05: the server speaks 2025-11-25');
    expect(text.match(/seen on the wire/g)).toHaveLength(1);
  });

  it('a tool that may change state is not probed, and says so', () => {
    const mutation = operationLines(text, 'delete_row');
    expect(mutation).toContain(
      '# DECIDE the claims the probe can see: not probed: it may change state (its annotations say destructiveHint: true): --allow-mutations calls it',
    );
    expect(mutation).not.toContain('seen on the wire');
  });

  it('the day is the one given', () => {
    expect(
      written(
        OBSERVED.map((entry) => entry),
        'stdio',
      ).replaceAll(DAY, ''),
    ).not.toContain('seen on the wire 2');
    expect(
      observedManifest({
        serverName: 'r',
        specVersion: '2025-11-25',
        transport: 'stdio',
        source: 's',
        tools: TOOLS,
        observations: OBSERVED,
        day: '2027-01-31',
      }),
    ).toContain('# seen on the wire 2027-01-31: the server speaks 2025-11-25');
  });

  it('lints without a placeholder or schema error', async () => {
    const outcome = await lint({ paths: [], text: { file: 'observed.yaml', content: text } });
    if (!outcome.ok) throw new Error(outcome.problem);
    const rules = outcome.result.files.flatMap((file) => file.findings.map((finding) => finding.ruleId));
    expect(rules.length).toBeGreaterThan(0);
    expect(rules.filter((rule) => rule === 'manifest-placeholders' || rule === 'manifest-schema')).toEqual([]);
  });

  it('drift of it against each run contradicts nothing, and every claim written from a run is seen there', () => {
    const loaded = load(text);
    for (const entry of OBSERVED) {
      if (!('report' in entry)) continue;
      const findings = driftFindings(loaded, entry.report);
      expect(findings, entry.tool).toEqual([]);
      const own = wireClaims(loaded, entry.report, findings).filter((claim) => claim.operation === entry.tool);
      expect(own.filter((claim) => claim.status === 'contradicted')).toEqual([]);
    }
    const claims = wireClaims(loaded, slowReport(), []).filter((claim) => claim.operation === 'slow_report');
    expect(Object.fromEntries(claims.map((claim) => [claim.field, claim.status]))).toEqual({
      'progress.emits': 'seen',
      'progress.minIntervalMs': 'seen',
      'cancellation.suppressResponseAfterCancel': 'seen',
      'cancellation.invalidOrLate': 'seen',
    });
  });

  it('over Streamable HTTP: the SSE headers seen, and GET answered 405', () => {
    const http = written([{ tool: 'slow_report', report: slowReport('streamable-http') }], 'streamable-http');
    expect(http).toContain(
      'sseHeaders: { Content-Type: text/event-stream, Cache-Control: no-cache, X-Accel-Buffering: "no" } ' +
        '# seen on the wire 2026-12-05: every SSE response carried the three headers',
    );
    expect(http).toContain('transports: [ streamable-http ] # seen on the wire 2026-12-05: GET was answered 405');
    expect(driftFindings(load(http), slowReport('streamable-http'))).toEqual([]);
  });
});

describe('init --observe: which tools it calls', () => {
  it('read-only by their annotations only; the others only with --allow-mutations, named', () => {
    const unannotated: ToolSummary = { name: 'sync' };
    expect(observationPlan([...TOOLS, unannotated], false)).toEqual({
      probe: ['slow_report', 'quick_read', 'stuck_read'],
      mayChangeState: [],
      skipped: [
        { tool: 'delete_row', why: 'it may change state (its annotations say destructiveHint: true): --allow-mutations calls it' },
        {
          tool: 'sync',
          why:
            'it may change state (it is not annotated read-only (tools are assumed to change state unless readOnlyHint says otherwise)): ' +
            '--allow-mutations calls it',
        },
      ],
    });
    expect(observationPlan([...TOOLS, unannotated], true)).toEqual({
      probe: ['slow_report', 'quick_read', 'stuck_read', 'delete_row', 'sync'],
      mayChangeState: ['delete_row', 'sync'],
      skipped: [],
    });
  });
});

describe('a progress interval as a round figure at or below the median gap', () => {
  it.each([
    [251, 250],
    [2004, 2000],
    [237, 230],
    [1990, 1900],
    [2096, 2000],
    [43.4, 43],
    [7.2, 7],
    [0.3, 1],
    [123_456, 120_000],
  ])('a median gap of %s ms: %s ms', (median, interval) => {
    expect(roundedInterval(median)).toBe(interval);
    // A minimum the server kept (at or below the median, but for the floor of 1 ms), at most 5 % under it: drift holds a
    // claim to a median gap of at least 80 % of it.
    if (median >= 1) expect(roundedInterval(median)).toBeLessThanOrEqual(median);
    if (median >= 10) expect(roundedInterval(median)).toBeGreaterThanOrEqual(median * 0.95);
  });
});
