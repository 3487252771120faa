/** The tasks check's messages about creating a task: tabled in task-creation.test.ts, left out of tasks.test.ts's tables. */
export const CREATION_MESSAGES = [
  'creationUnanswered',
  'budgetSpent',
  'capabilityRefused',
  'toolRefused',
  'toolFailedNotTask',
  'ordinaryResultChosen',
  'ordinaryResult',
  'malformedTask',
];
