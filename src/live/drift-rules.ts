import type { Severity } from '../findings/finding.js';
import type { RuleDescriptor } from '../findings/rule-descriptor.js';

/** The claims drift compares with the server: what each rule reads in the manifest and what it reads of the server. */
export const DRIFT_RULES: readonly DriftRule[] = [
  rule(
    'drift-tool-missing',
    'error',
    'Every tool the manifest describes is listed by the server.',
    'tools/list',
    'Rename the operation to the tool the server lists, or remove it.',
  ),
  rule(
    'drift-tool-undescribed',
    'warn',
    'Every tool the server lists is described by an operation.',
    'tools/list',
    'Describe the tool as an operation (mcprely init writes a starting one).',
  ),
  rule(
    'drift-key-argument',
    'error',
    "The idempotency key argument is a required argument of the tool's input schema.",
    'inputSchema',
    "Name the argument the tool's inputSchema carries the key in, and make it required.",
  ),
  rule(
    'drift-fingerprint-argument',
    'error',
    "Every fingerprint argument is an argument of the tool's input schema.",
    'inputSchema',
    'List only arguments the tool takes in idempotency.fingerprint.',
  ),
  rule(
    'drift-annotations',
    'error',
    "The manifest's annotations are the ones the server advertises.",
    'annotations',
    'Copy the annotations the server advertises, or change what the server advertises.',
  ),
  rule(
    'drift-task-support',
    'error',
    "task.used agrees with the tool's execution.taskSupport.",
    'execution.taskSupport',
    'Set task.used to what the server supports, or change the tool.',
  ),
  rule(
    'drift-task',
    'error',
    "The task claims (task.cancel, task.survivesDisconnect, task.store: durable) are what the server's tasks do on the wire.",
    'the tasks check',
    'Make task.cancel, task.survivesDisconnect and task.store say what the server does, or fix the server.',
  ),
  rule(
    'drift-revision',
    'error',
    'The server negotiates the revision the manifest names.',
    'the revision check',
    'Set specVersion to the revision the server speaks.',
  ),
  rule(
    'drift-progress',
    'error',
    'Progress on the wire is what the manifest says: sent or not, increasing, stopping at completion, no faster than minIntervalMs ' +
      '(and, in a recorded session, never further apart than maxIntervalMs).',
    'the progress check',
    'Make progress.emits and progress.minIntervalMs say what the server does, or fix the server.',
    true,
  ),
  rule(
    'drift-cancellation',
    'error',
    'After a cancellation the server does what cancellation.stopsWork and suppressResponseAfterCancel say.',
    'the cancellation and client-timeouts checks',
    'Make the server stop and stay silent after a cancellation, or say in the manifest that it does not.',
    true,
  ),
  rule(
    'drift-duration',
    'warn',
    'Real calls of an operation end within the maximum timeout the manifest gives it (timeouts.maxMs).',
    'the durations of the calls',
    'Raise timeouts.maxMs to what the operation needs (or run it as a task), or make the operation faster.',
    'only',
  ),
  rule(
    'drift-ignored-cancellations',
    'error',
    'Late, unknown and malformed cancellations are handled as cancellation.invalidOrLate says.',
    'the ignored-cancellations check',
    'Make the server ignore them, or set cancellation.invalidOrLate to what it does.',
  ),
  rule(
    'drift-sse-headers',
    'error',
    'The SSE responses carry the headers server.http.sseHeaders lists.',
    'the sse-headers check',
    'Send the headers the manifest lists (or list the ones it sends).',
  ),
  rule(
    'drift-http-transport',
    'error',
    "The HTTP endpoint answers as the manifest's revision of Streamable HTTP requires (GET, the cancel signal).",
    'the get-405 check',
    "Serve Streamable HTTP as the manifest's revision requires.",
  ),
  rule(
    'drift-idempotency',
    'error',
    'The same key twice gives one result, and a key reused with other arguments is handled as the manifest says.',
    'the idempotent-replay check',
    'Make the server keep its idempotency contract, or say in the manifest what it does.',
  ),
];

/**
 * `sessions`: the rule is also judged on recorded real traffic (`mcprely audit --manifest`); `'only'`: only there
 * (what a probe's few calls cannot show).
 */
function rule(
  id: string,
  severity: Severity,
  description: string,
  from: string,
  fix: string,
  sessions: boolean | 'only' = false,
): DriftRule {
  const checked =
    sessions === 'only'
      ? `Checked against ${from} in real sessions (mcprely audit --manifest)`
      : `Checked against ${from} of the live server (mcprely drift, evidence --stdio/--url)` +
        (sessions ? ' and against the traffic of real sessions (mcprely audit --manifest)' : '');
  const rationale = `A manifest is a claim about a server. ${checked}, a claim the server contradicts makes every verdict drawn from the manifest wrong.`;
  return {
    id,
    severity,
    description,
    rationale,
    fix,
    tags: ['drift'],
    docPage: `docs/rules/${id}.md`,
    helpMarkdown: [
      description,
      '',
      `**Why.** ${rationale} Only what the manifest says is a claim: a field it leaves unset promises nothing.`,
      '',
      `**Fix.** ${fix}`,
      '',
      sessions === 'only'
        ? 'Found in a recorded session by `mcprely audit <trace.jsonl> --manifest <manifest>`.'
        : `Found by \`mcprely drift <manifest> --stdio "<command>" | --url <endpoint>\`, and by \`mcprely evidence --stdio/--url\`, whose verdict it refuses` +
          (sessions ? '; and in a recorded session by `mcprely audit <trace.jsonl> --manifest <manifest>`.' : '.'),
    ].join('\n'),
  };
}

/** A drift rule: described in code, with its page's words (docs/rules/<id>.md is rendered from them). */
export interface DriftRule extends RuleDescriptor {
  readonly docPage: string;
  readonly helpMarkdown: string;
}

export const DRIFT_RULE_IDS: ReadonlySet<string> = new Set(DRIFT_RULES.map((descriptor) => descriptor.id));
