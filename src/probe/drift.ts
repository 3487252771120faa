import { LineIndex } from '../document/line-index.js';
import { plural } from '../text/plural.js';
import { locate, type PathSegment } from '../document/source-map.js';
import { makeFinding, type Finding } from '../findings/finding.js';
import type { LoadedManifest } from '../manifest/load.js';
import type { ResolvedOperation } from '../manifest/resolved-operation.js';
import { taskClaims } from '../live/task-claims.js';
import { cancelledRequestObservation } from '../live/probe-observations.js';
import { emitsProgress, usesTask } from '../policy/predicates.js';
import { factsOf } from '../spec/revision-facts.js';
import type { ProbeCheckId } from './probe-check-catalog.js';
import type { CheckResult, ProbeReport } from './probe-types.js';
import { HINT_DEFAULTS, TOOL_HINTS, type ToolSummary } from './tool-summary.js';
import type { WireEntry } from './wire-log.js';

import { DRIFT_RULES } from '../live/drift-rules.js';

export { DRIFT_RULE_IDS, DRIFT_RULES, type DriftRule } from '../live/drift-rules.js';
import { METHODS } from '../protocol/methods.js';

/**
 * Where the manifest and the server it describes disagree: what tools/list says (tools, arguments, annotations,
 * task support) and every claim a probe check contradicted on the wire, each a finding at the manifest line of
 * the claim, with the check's summary and a transcript excerpt. Pure: the probe has already run.
 */
export function driftFindings(manifest: LoadedManifest, report: ProbeReport): Finding[] {
  const findings: { finding: Finding; offset: number }[] = [];
  let lines: LineIndex | undefined;
  const add = (
    id: string,
    place: { operation?: ResolvedOperation; path: readonly PathSegment[]; at?: 'key' | 'value' },
    messageId: string,
    message: string,
    data: Record<string, string | number> = {},
  ) => {
    const descriptor = DRIFT_RULES.find((candidate) => candidate.id === id)!;
    const at = place.at ?? 'value';
    const span = place.operation === undefined ? locate(manifest.source, place.path, at) : place.operation.locate(place.path, at);
    const path = place.operation === undefined ? place.path : ['operations', place.operation.index, ...place.path];
    lines ??= new LineIndex(manifest.text);
    findings.push({
      finding: makeFinding({
        ruleId: id,
        severity: descriptor.severity,
        messageId,
        message,
        data: { ...(place.operation === undefined ? {} : { operation: place.operation.spec.name }), ...data },
        file: manifest.file,
        path,
        range: { start: lines.position(span.start), end: lines.position(span.end) },
        fix: descriptor.fix,
      }),
      offset: span.start,
    });
  };
  if (report.tools !== undefined)
    listedDrift(
      manifest,
      report.tools,
      add,
      report.revision !== 'unknown' && factsOf(report.revision)['task-augmentation'].value === 'server-directed',
    );
  wireDrift(manifest, report, add);
  findings.sort((a, b) => a.offset - b.offset);
  return findings.map(({ finding }) => finding);
}

type Add = (
  id: string,
  place: { operation?: ResolvedOperation; path: readonly PathSegment[]; at?: 'key' | 'value' },
  messageId: string,
  message: string,
  data?: Record<string, string | number>,
) => void;

/** What tools/list shows: the tools, their arguments, annotations and task support. */
function listedDrift(manifest: LoadedManifest, tools: readonly ToolSummary[], add: Add, serverDirected: boolean): void {
  const listed = new Map(tools.map((tool) => [tool.name, tool]));
  const described = new Set<string>();
  for (const operation of manifest.operations) {
    const spec = operation.spec;
    if (spec.method !== METHODS.toolsCall || spec.direction === 'server-to-client') continue;
    described.add(spec.name);
    const tool = listed.get(spec.name);
    if (tool === undefined) {
      add(
        'drift-tool-missing',
        { operation, path: ['name'] },
        'tool-missing',
        `${spec.name}: the server lists no tool of this name (it lists ${tools.length === 0 ? 'none' : shortList(tools.map((candidate) => candidate.name))})`,
      );
      continue;
    }
    const key = spec.idempotency?.keyArgument;
    if (key !== undefined && tool.arguments !== undefined) {
      if (!tool.arguments.includes(key))
        add(
          'drift-key-argument',
          { operation, path: ['idempotency', 'keyArgument'] },
          'key-not-an-argument',
          `${spec.name}: the key argument ${key} is not an argument of the tool ` +
            `(its inputSchema has ${shortList(tool.arguments) || 'none'}), so no call carries the key`,
        );
      else if (!(tool.required ?? []).includes(key))
        add(
          'drift-key-argument',
          { operation, path: ['idempotency', 'keyArgument'] },
          'key-optional',
          `${spec.name}: the key argument ${key} is optional in the tool's inputSchema, so a call without it is not keyed and runs again on retry`,
        );
    }
    const fingerprint = spec.idempotency?.fingerprint ?? [];
    const unknown = tool.arguments === undefined ? [] : fingerprint.filter((name) => !tool.arguments!.includes(name));
    if (unknown.length > 0)
      add(
        'drift-fingerprint-argument',
        { operation, path: ['idempotency', 'fingerprint'] },
        'fingerprint-not-arguments',
        `${spec.name}: the fingerprint names ${unknown.join(', ')}, which the tool does not take ` +
          `(its inputSchema has ${shortList(tool.arguments ?? []) || 'none'})`,
      );
    const claimed = spec.annotations;
    if (claimed !== undefined) {
      for (const hint of TOOL_HINTS) {
        const mine = claimed[hint];
        if (mine === undefined) continue;
        const theirs = tool.annotations?.[hint];
        const effective = theirs ?? HINT_DEFAULTS[hint];
        if (mine !== effective)
          add(
            'drift-annotations',
            { operation, path: ['annotations', hint] },
            'annotation-differs',
            `${spec.name}: the manifest says ${hint}: ${mine}, the server ` +
              (theirs === undefined ? `gives no ${hint} (which means ${effective})` : `advertises ${hint}: ${theirs}`),
            { hint },
          );
      }
    }
    const support = tool.taskSupport;
    const used = usesTask(spec);
    // Where the server decides per request which calls become tasks, a tool need not say execution.taskSupport.
    if (used && (support === 'forbidden' || (support === undefined && !serverDirected)))
      add(
        'drift-task-support',
        { operation, path: ['task', 'used'] },
        'task-not-supported',
        `${spec.name}: the manifest runs it as a task, but the tool's execution.taskSupport is ${support ?? 'absent (tasks forbidden)'}`,
      );
    else if (!used && support === 'required')
      add(
        'drift-task-support',
        { operation, path: ['task'], at: 'key' },
        'task-required',
        `${spec.name}: the tool's execution.taskSupport is required, but the manifest does not run it as a task (task.used is not true)`,
      );
  }
  const undescribed = tools.filter((tool) => !described.has(tool.name));
  for (const tool of undescribed)
    add(
      'drift-tool-undescribed',
      { path: ['operations'], at: 'key' },
      'tool-undescribed',
      `the server lists the tool ${tool.name}, which no operation describes: its timeouts, retry and cancellation are unreviewed`,
      { tool: tool.name },
    );
}

/** Each claim a probe check contradicted on the wire. */
function wireDrift(manifest: LoadedManifest, report: ProbeReport, add: Add): void {
  const failed = (id: ProbeCheckId) => report.checks.find((check) => check.id === id && check.status === 'fail');
  const byName = (name: string | null | undefined) =>
    name === null || name === undefined ? undefined : manifest.operations.find((operation) => operation.spec.name === name);
  const probed = byName(report.plan?.tool);
  const seen = (check: CheckResult) => ({ check: check.id, excerpt: excerpt(check.transcript) });

  const revision = failed('revision');
  if (revision !== undefined)
    add(
      'drift-revision',
      { path: ['specVersion'] },
      'revision',
      `specVersion is ${manifest.manifest.specVersion}, but ${revision.summary}`,
      seen(revision),
    );

  if (probed !== undefined) {
    const spec = probed.spec;
    const progress = report.checks.find((check) => check.id === 'progress');
    if (progress?.status === 'fail' && emitsProgress(spec))
      add(
        'drift-progress',
        { operation: probed, path: ['progress'], at: 'key' },
        'progress-contract',
        `${spec.name} sends progress as the spec requires, says the manifest, but ${progress.summary}`,
        seen(progress),
      );
    if (progress !== undefined && progress.status !== 'fail') {
      const times = progressTimes(progress.transcript);
      if (times.length === 0 && emitsProgress(spec) && /sent no progress/.test(progress.summary))
        add(
          'drift-progress',
          { operation: probed, path: ['progress', 'emits'] },
          'progress-none',
          `${spec.name}: progress.emits is true, but the server sent no progress in a whole run`,
          seen(progress),
        );
      if (times.length > 0 && spec.progress?.emits === false)
        add(
          'drift-progress',
          { operation: probed, path: ['progress', 'emits'] },
          'progress-unexpected',
          `${spec.name}: progress.emits is false, but the server sent ${plural(times.length, 'progress notification')}`,
          seen(progress),
        );
      const claimed = spec.progress?.minIntervalMs;
      const median = medianGap(times);
      // The median, not the least gap: a pipe or a proxy may deliver two notifications in one read.
      if (claimed !== undefined && median !== undefined && median < claimed * 0.8)
        add(
          'drift-progress',
          { operation: probed, path: ['progress', 'minIntervalMs'] },
          'progress-faster',
          `${spec.name}: progress.minIntervalMs is ${claimed}, ` +
            `but the server sent progress every ${Math.round(median)} ms (median of ${times.length - 1} gaps)`,
          seen(progress),
        );
    }
    const cancellation = spec.cancellation ?? {};
    // Only what the manifest says is a claim, and only the claim the wire contradicted is named: progress or a
    // result after a cancellation (or work a status tool still counts) says the work went on; a response or an
    // error that answers the cancellation says the response was not suppressed.
    const cancelChecks = (['cancel-before-completion', 'client-timeouts'] as const)
      .map((id) => failed(id))
      .filter((check) => check !== undefined);
    const workWentOn = cancelChecks.filter((check) => {
      const observed = cancelledRequestObservation(check);
      return observed?.progressAfterCancel === true || observed?.resultAfterCancel === true || (observed?.workRunning ?? 0) > 0;
    });
    const answered = cancelChecks.filter((check) => {
      const observed = cancelledRequestObservation(check);
      return observed?.resultAfterCancel === true || observed?.answeredCancellation === true;
    });
    const signal = report.transport === 'streamable-http' ? ` (httpSignal: ${cancellation.httpSignal ?? 'unset'})` : '';
    if ((cancellation.stopsWork === 'immediately' || cancellation.stopsWork === 'checkpoint') && workWentOn.length > 0)
      add(
        'drift-cancellation',
        { operation: probed, path: ['cancellation', 'stopsWork'] },
        'work-went-on',
        `${spec.name}: the manifest says stopsWork: ${cancellation.stopsWork}${signal}, but on the wire ` +
          `(${workWentOn.map((check) => check.id).join(', ')}): ${workWentOn[0]!.summary}`,
        seen(workWentOn[0]!),
      );
    if (cancellation.suppressResponseAfterCancel === true && answered.length > 0)
      add(
        'drift-cancellation',
        { operation: probed, path: ['cancellation', 'suppressResponseAfterCancel'] },
        'response-after-cancel',
        `${spec.name}: the manifest says suppressResponseAfterCancel: true${signal}, but on the wire ` +
          `(${answered.map((check) => check.id).join(', ')}): ${answered[0]!.summary}`,
        seen(answered[0]!),
      );
    const ignored = failed('ignored-cancellations');
    if (ignored !== undefined && cancellation.invalidOrLate === 'ignore')
      add(
        'drift-ignored-cancellations',
        { operation: probed, path: ['cancellation', 'invalidOrLate'] },
        'cancellations-answered',
        `${spec.name}: the manifest says invalidOrLate: ignore, but ${ignored.summary}`,
        seen(ignored),
      );
  }
  const taskOperation = byName(report.plan?.taskTool);
  const tasks = report.checks.find((check) => check.id === 'tasks');
  if (taskOperation !== undefined && tasks !== undefined)
    for (const claim of taskClaims(taskOperation.spec.task, tasks)) {
      if (claim.status !== 'contradicted') continue;
      add(
        'drift-task',
        { operation: taskOperation, path: claim.field.split('.') },
        claim.field.replace('task.', 'task-'),
        `${taskOperation.spec.name}: the manifest says ${claim.field}: ${claim.value}, but ${claim.why}`,
        seen(tasks),
      );
    }
  const headers = failed('sse-headers');
  if (headers !== undefined && manifest.manifest.server.http?.sseHeaders !== undefined)
    add(
      'drift-sse-headers',
      { path: ['server', 'http', 'sseHeaders'], at: 'key' },
      'sse-headers',
      `server.http.sseHeaders lists headers the server does not send: ${headers.summary}`,
      seen(headers),
    );
  const get = failed('get-405');
  if (get !== undefined)
    add(
      'drift-http-transport',
      { path: ['server', 'transports'] },
      'get-not-405',
      `the manifest offers Streamable HTTP under ${manifest.manifest.specVersion}, but ${get.summary}`,
      seen(get),
    );
  const replay = failed('idempotent-replay');
  const mutation = byName(report.plan?.mutation);
  if (replay !== undefined && mutation !== undefined) {
    const idempotency = mutation.spec.idempotency;
    add(
      'drift-idempotency',
      { operation: mutation, path: ['idempotency', 'keyArgument'] },
      'replay',
      `${mutation.spec.name}: the manifest keys it by ${idempotency?.keyArgument ?? 'nothing'} ` +
        `(onKeyReuseWithOtherArguments: ${idempotency?.onKeyReuseWithOtherArguments ?? 'unset'}), but ${replay.summary}`,
      seen(replay),
    );
  }
}

/** When each progress notification of a check arrived (ms on the probe's clock). */
export function progressTimes(transcript: readonly WireEntry[]): number[] {
  return transcript.filter((entry) => entry.direction === '←' && entry.text.includes('"notifications/progress"')).map((entry) => entry.t);
}

/** The median gap between progress notifications (ms), from three of them: what drift holds progress.minIntervalMs to. */
export function medianGap(times: readonly number[]): number | undefined {
  if (times.length < 3) return undefined;
  const gaps = times
    .slice(1)
    .map((time, index) => time - times[index]!)
    .sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)];
}

/** The part of a check's transcript that shows what it met: from the cancellation on when there was one, else its end; at most six lines. */
export function excerpt(transcript: readonly WireEntry[]): string {
  const cancel = transcript.findIndex(
    (entry) => entry.direction === '→' && (entry.text.includes(METHODS.cancelled) || entry.text.startsWith('[closes the response stream')),
  );
  const from = cancel >= 0 ? cancel : Math.max(0, transcript.length - 6);
  return transcript
    .slice(from, from + 6)
    .map((entry) => `t=${entry.t}ms ${entry.direction} ${entry.text.length > 200 ? `${entry.text.slice(0, 200)}…` : entry.text}`)
    .join('\n');
}

function shortList(names: readonly string[]): string {
  return names.length <= 8 ? names.join(', ') : `${names.slice(0, 8).join(', ')} and ${names.length - 8} more`;
}
