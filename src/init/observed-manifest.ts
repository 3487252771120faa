import { observationOf } from '../live/probe-observations.js';
import { type ClaimStatus, type WireClaim, wireClaims } from '../live/wire-claims.js';
import { loadManifest } from '../manifest/load.js';
import { driftFindings } from '../probe/drift.js';
import type { ProbeReport } from '../probe/probe-types.js';
import { displayText, truncated } from '../text/display-text.js';
import { type ClaimProposal, operationProposals, serverProposals } from './claim-proposals.js';
import { type ObservedNotes, type ScaffoldInput, scaffoldManifest, type WrittenClaim } from './scaffold-manifest.js';

/** What init --observe learned of one tool: the probe's report, or why the tool was not probed or its probe could not run. */
export type ToolObservation =
  | { readonly tool: string; readonly report: ProbeReport }
  | { readonly tool: string; readonly notProbed: string };

export interface ObservedManifestInput extends ScaffoldInput {
  /**
   * One entry per listed tool that init considered (a tool without one is written as init writes it without --observe);
   * a run of tool '' called no tool and shows only the server's claims.
   */
  readonly observations: readonly ToolObservation[];
  /** The day of the observations (YYYY-MM-DD), named in every comment. */
  readonly day: string;
}

/** What no probe check can see, whatever the server: each stays open with why. */
const NEVER_ON_THE_WIRE = [
  'retry, idempotency: not observable on the wire: whether a retry repeats the side effect (sideEffect rests on annotations, untrusted hints)',
];

/**
 * A starting manifest from tools/list and what the probe saw of each tool: every claim the probe can see proposed
 * from its observation (claim-proposals), then judged by the same machinery as `mcprely drift` (drift findings and
 * wire-claims, on a manifest that makes the proposals, against each tool's run): a claim seen is written with
 * `# seen on the wire <day>: <observation>`, one the wire contradicts as what it showed (stopsWork: never, …), and
 * every other stays open with a comment saying why (not observable, not seen, not probed). Pure.
 */
export function observedManifest(input: ObservedManifestInput): string {
  const runs = input.observations.filter((entry): entry is { tool: string; report: ProbeReport } => 'report' in entry);
  const started = runs.filter((run) => run.report.startedOk);
  const serverRun = started[0]?.report;
  const proposals = new Map<string, ClaimProposal[]>();
  for (const { report } of started)
    for (const { name } of input.tools) {
      // A field proposed once (a task tool the runs of several tools ran as a task): from the first run.
      const before = proposals.get(name) ?? [];
      const found = operationProposals(report, name).filter((proposal) => !before.some((earlier) => earlier.field === proposal.field));
      if (found.length > 0) proposals.set(name, [...before, ...found]);
    }
  // The candidate: every proposal made, judged against the run of the tool it is about.
  const candidate = scaffoldManifest({ ...input, observed: notesOf(proposals, serverRun) });
  const loaded = loadManifest('observed.yaml', new TextEncoder().encode(candidate));
  // What a server listed that no manifest can hold stops the judgement, not init: nothing is written as seen.
  if (!loaded.ok) {
    const why = `not judged: the manifest would not load (${oneLine(loaded.problems.map((problem) => problem.message).join('; '))})`;
    return scaffoldManifest({ ...input, observed: new Map(input.observations.map(({ tool }) => [tool, { claims: [], open: [why] }])) });
  }
  const judged = new Map<string, WireClaim[]>();
  for (const { report } of started) {
    for (const claim of wireClaims(loaded, report, driftFindings(loaded, report))) {
      const about = claim.operation ?? '';
      // A tool's claims count from its own run (the tool probed, or run as a task), the server's from the first run.
      const own =
        claim.operation === undefined
          ? report === serverRun
          : claim.check === 'tasks'
            ? report.plan?.taskTool === claim.operation
            : report.plan?.tool === claim.operation;
      if (own) judged.set(about, [...(judged.get(about) ?? []), claim]);
    }
  }
  const observed = new Map<string, ObservedNotes>();
  // A run that called no tool (tool '') shows only the server's claims: the server's notes, set after, replace its own.
  for (const entry of input.observations)
    observed.set(entry.tool, toolNotes(entry, proposals.get(entry.tool) ?? [], judged.get(entry.tool) ?? [], input.day));
  if (serverRun !== undefined) observed.set('', serverNotes(serverRun, judged.get('') ?? [], input.day));
  return scaffoldManifest({ ...input, observed });
}

/** The candidate's notes: every proposal as a claim, without comments. */
function notesOf(proposals: ReadonlyMap<string, readonly ClaimProposal[]>, serverRun: ProbeReport | undefined): Map<string, ObservedNotes> {
  const asClaims = (list: readonly ClaimProposal[]) => list.map(({ field, value }) => ({ field, value, comment: '' }));
  const notes = new Map([...proposals].map(([tool, list]) => [tool, { claims: asClaims(list), open: [] }] as const));
  if (serverRun !== undefined) notes.set('', { claims: asClaims(serverProposals(serverRun)), open: [] });
  return notes;
}

/** One tool's claims as judged, and what stays open (never on the wire; not probed; not seen; not observable). */
function toolNotes(entry: ToolObservation, proposals: readonly ClaimProposal[], judged: readonly WireClaim[], day: string): ObservedNotes {
  if ('notProbed' in entry)
    return { claims: [], open: [`the claims the probe can see: not probed: ${oneLine(entry.notProbed)}`, ...NEVER_ON_THE_WIRE] };
  if (!entry.report.startedOk)
    return {
      claims: [],
      open: [`the claims the probe can see: its probe could not start: ${oneLine(entry.report.problem ?? 'no reason given')}`],
    };
  const report = entry.report;
  // A tool that did not answer within the probe's limit shows nothing of its own run: its silence after a
  // cancellation is no suppressed response. Only how the server takes stray cancellations (no run of it) stands.
  const progressCheck = report.checks.find((check) => check.id === 'progress');
  const stalled = observationOf(progressCheck, 'progress')?.completed === false ? progressCheck?.summary : undefined;
  const ownRun =
    stalled === undefined
      ? judged
      : judged.map((claim) =>
          claim.field === 'cancellation.invalidOrLate' ? claim : { ...claim, status: 'inconclusive' as const, why: stalled },
        );
  const decided = decide(proposals, ownRun, day);
  const open = [...decided.open];
  if (report.plan?.taskTool !== entry.tool) {
    const tasks = report.checks.find((check) => check.id === 'tasks');
    const support = report.tools?.find((tool) => tool.name === entry.tool)?.taskSupport;
    if (tasks !== undefined && (support === 'required' || support === 'optional'))
      open.push(`task.cancel, task.survivesDisconnect: not seen on the wire: ${oneLine(tasks.summary)}`);
  }
  open.push(...NEVER_ON_THE_WIRE);
  const ran = observationOf(progressCheck, 'progress')?.durationMs;
  const timeouts = `TODO: idleMs and maxMs, the client's limits: not observable on the wire${ran === undefined ? '' : ` (a run took ${ran} ms)`}`;
  return { claims: decided.claims, open, comments: { timeouts } };
}

/** The server's claims: the revision, the SSE headers (and a GET answered 405, which is no field: said on server.transports). */
function serverNotes(report: ProbeReport, judged: readonly WireClaim[], day: string): ObservedNotes {
  const decided = decide(serverProposals(report), judged, day);
  const get = report.checks.find((check) => check.id === 'get-405');
  const claims = [...decided.claims];
  if (get?.status === 'pass')
    claims.push({ field: 'server.transports', value: [report.transport], comment: `seen on the wire ${day}: ${oneLine(get.summary)}` });
  return { claims, open: decided.open };
}

/** Why a claim judged so stays open, in the comment's words. */
const OPEN_BECAUSE: Readonly<Record<ClaimStatus, string>> = {
  'not-observable': 'not observable on the wire',
  inconclusive: 'not seen on the wire',
  contradicted: 'the wire contradicts what it showed',
  seen: 'a stand-in, seen',
};

/**
 * Each proposal as the drift machinery judged it: seen — written, with the observation; contradicted — what the
 * wire showed instead, when the proposal names it; otherwise open, with the judgement's own why.
 */
function decide(
  proposals: readonly ClaimProposal[],
  judged: readonly WireClaim[],
  day: string,
): { claims: WrittenClaim[]; open: string[] } {
  const claims: WrittenClaim[] = [];
  // Fields left open for one reason are named together: a tool that failed leaves every claim open alike.
  const open = new Map<string, string[]>();
  for (const proposal of proposals) {
    const claim = judged.find((candidate) => candidate.field === proposal.field);
    const status: ClaimStatus = claim?.status ?? 'inconclusive';
    const why = oneLine(claim?.why ?? 'the probe did not judge it');
    if (status === 'seen' && proposal.standIn !== true)
      claims.push({
        field: proposal.field,
        value: proposal.value,
        comment: `seen on the wire ${day}: ${oneLine(proposal.observation ?? why)}`,
      });
    else if (status === 'contradicted' && proposal.otherwise !== undefined)
      claims.push({ field: proposal.field, value: proposal.otherwise, comment: `seen on the wire ${day}: ${why}` });
    else {
      const reason = `${OPEN_BECAUSE[status]}: ${why.replace(/^not run: /, '')}`;
      open.set(reason, [...(open.get(reason) ?? []), proposal.field]);
    }
  }
  return { claims, open: [...open].map(([reason, fields]) => `${fields.join(', ')}: ${reason}`) };
}

/** Untrusted text (a summary quoting the server) on one comment line, bounded, every control character escaped. */
function oneLine(text: string): string {
  return truncated(displayText(text.replace(/\s+/g, ' ').trim()), 400);
}
