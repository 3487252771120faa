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
  },
  asserts: ['server-silent-after-cancel'],
  putsCallInFlight: true,
});
