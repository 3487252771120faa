import { declareProbeCheck } from '../probe-check-declaration.js';

export const tasks = declareProbeCheck({
  id: 'tasks',
  title: 'tasks: created, polled to a terminal status, cancelled with tasks/cancel, found again after a disconnect',
  description:
    "Tasks on the wire, with the revision's protocol: a task-augmented tools/call returns a task, tasks/get reaches a " +
    "terminal status (polled at the server's interval) and the result can be had; a second task cancelled with tasks/cancel " +
    '(never notifications/cancelled) ends as the revision says; over Streamable HTTP a fresh connection still finds the first task.',
  basis:
    'a task-augmented request returns a task that tasks/get follows to a terminal status (terminal statuses never change); ' +
    'tasks/cancel, never notifications/cancelled, cancels it — moving it to cancelled before answering, or acknowledging it, ' +
    'as the revision says; task state outlives the connection that created it',
  fix:
    'answer a task-augmented tools/call with the task at once, keep its status in a store every connection reads, ' +
    'move it to cancelled on tasks/cancel (and never to completed afterwards), and refuse tasks/cancel of a terminal task with -32602',
  outcomes: ['pass', 'fail', 'inconclusive'],
  messages: {
    creationUnanswered: 'the task-augmented tools/call (request {{request}}, {{how}}) was not answered: {{why}}',
    budgetSpent: "no CreateTaskResult within the {{waitMs}} ms left of the probe's budget: raise --max-time",
    capabilityRefused:
      'tools/call {{how}} was refused {{atMs}} ms after request {{request}} for a missing client capability (-32021): the request declared it',
    toolRefused:
      '{{tool}} answered the task-augmented tools/call with {{failure}} {{atMs}} ms after request {{request}}: nothing to check; ' +
      'give it working --arguments',
    toolFailedNotTask: '{{tool}} answered with {{failure}} {{atMs}} ms after request {{request}}, not a task: give it working --arguments',
    ordinaryResultChosen:
      '{{tool}} answered {{atMs}} ms after request {{request}} with an ordinary result (resultType {{resultType}}), not a task: ' +
      'on this revision the server decides per request whether to create one; give it longer work with --arguments',
    ordinaryResult:
      '{{tool}} answered the task-augmented tools/call {{atMs}} ms after request {{request}} with an ordinary result, ' +
      'not CreateTaskResult ({ task }), though its execution.taskSupport is {{taskSupport}}',
    malformedTask: 'the CreateTaskResult {{atMs}} ms after request {{request}} has no taskId or no known status: {{seed}}',
    noTaskTool: 'no tool to run as a task: {{why}}',
    noTaskToolUndeclared: 'no tool to run as a task: {{why}}; {{undeclared}}',
    notDeclared: '{{undeclared}}, so the probe sends it no task-augmented request',
    notDeclaredRequired:
      '{{undeclared}}, so the probe sends it no task-augmented request, though {{tool}} says execution.taskSupport: required',
    noTask: 'no task was created',
    stillRunning:
      "task {{taskId}} of {{tool}} was still {{status}} {{limitMs}} ms after the request, the probe's limit for one run " +
      '(two fifths of --max-time, at most 65 s): its end was not seen; raise --max-time or give it shorter work with --arguments',
    notWaitedAgain:
      'task {{taskId}} of {{tool}} was still {{status}} {{limitMs}} ms after the request: not waited for again, since {{tool}} ' +
      'never answered within {{stallMs}} ms as a plain call in {{check}}',
    cancelUnplayed: 'task {{taskId}} ended {{terminal}}; {{unplayed}}',
    passed: 'task {{taskId}} ended {{terminal}} {{runMs}} ms after the request ({{polls}} tasks/get); {{cancel}}; {{disconnect}}',
    getUnanswered: 'tasks/get of task {{taskId}} was not answered: {{why}}',
    getRefused: 'tasks/get of task {{taskId}} was refused with {{error}}',
    getNoStatus: 'tasks/get of task {{taskId}} answered without its status: {{result}}',
    terminalChanged:
      'task {{taskId}} went from {{before}} to {{after}} (tasks/get {{atMs}} ms after request {{request}}): terminal statuses never change',
    notCancelledAfterCancel:
      'task {{taskId}} is {{status}} (tasks/get {{atMs}} ms after request {{request}}), after tasks/cancel had answered {{expected}}',
    noInlineResult: 'tasks/get of the completed task {{taskId}} carries no result',
    noInlineError: 'tasks/get of the failed task {{taskId}} carries no error',
    resultUnanswered: 'tasks/result of the {{status}} task {{taskId}} was not answered: {{why}}',
    resultRefused: 'tasks/result of the completed task {{taskId}} was refused with {{error}} ({{at}})',
    resultNotCallToolResult: 'tasks/result of the completed task {{taskId}} is not a CallToolResult (no content array, {{at}})',
    progressNotIncreasing: 'progress {{value}} follows {{previous}} for request {{request}}: not strictly increasing',
    lateProgress:
      '{{count|progress notification}} for request {{request}} after {{after}} (first {{firstMs}} ms after the request): {{rule}}',
    secondNotCreated: 'the second task was not created: {{why}}',
    cancelUnanswered: 'tasks/cancel of task {{taskId}} was not answered: {{why}}',
    alreadyEnded: 'the second task was already {{status}} when tasks/cancel came ({{error}}): give it longer work with --arguments',
    cancelRefused: 'tasks/cancel of the {{status}} task {{taskId}} was refused with {{error}} ({{at}})',
    cancelNotTerminal:
      'tasks/cancel of task {{taskId}} answered {{answer}} ({{at}}): tasks/cancel moves the task to cancelled before it answers',
    cancelAckNotObject: 'tasks/cancel of task {{taskId}} answered with a result that is not an object ({{at}})',
    cancelStillRunning:
      'tasks/cancel of the second task was acknowledged {{at}}, but it was still {{status}} after {{watchMs}} ms ' +
      '(cancellation is eventually consistent): raise --max-time to watch longer',
    cancelHeld:
      'tasks/cancel answered cancelled {{at}} and the task stayed cancelled for {{watchMs}} ms; a second tasks/cancel was refused with -32602',
    cancelAcknowledged: 'tasks/cancel was acknowledged {{at}} and the task then reached {{status}} (eventually consistent)',
    terminalCancelUnanswered: 'tasks/cancel of the cancelled task {{taskId}} was not answered: {{why}}',
    terminalCancelAnswered:
      'tasks/cancel of the cancelled (terminal) task {{taskId}} was answered with {{answer}}, not -32602 (Invalid params)',
    lostOnDisconnect:
      'tasks/get {{how}} did not find task {{taskId}}: {{failure}}: the task did not outlive the connection that created it',
  },
  asserts: ['server-silent-after-cancel'],
  putsCallInFlight: true,
});
