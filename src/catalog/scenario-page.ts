import type { CheckStatus } from '../live/outcome.js';
import { STATUS_WORDS } from '../live/outcome.js';
import type { Scenario } from '../probe-client/scenarios.js';

/** What each outcome of a client scenario means (src/probe-client/scenario-outcomes.ts decides them). */
export const SCENARIO_OUTCOMES: Readonly<Record<CheckStatus, string>> = {
  pass: 'a judge that shows what the scenario is for passed a case about its calls, and no judge failed one',
  fail: 'a judge failed a case about its calls',
  inconclusive: 'the client never called it, or nothing it did decided it',
  'not-observable': 'its deciding judges cannot see the client on this transport or revision (a dropped stream over stdio)',
};

/** A client scenario's page, docs/rules/<name>.md (and what `mcprely rules <name>` prints). */
export function renderScenarioPage(scenario: Scenario): string {
  const others = scenario.judges.filter((judge) => !scenario.decisive.includes(judge));
  const transport = scenario.httpOnly === true ? 'Streamable HTTP only' : 'stdio and Streamable HTTP';
  return [
    `# ${scenario.name}`,
    '',
    `**Area:** probe-client scenario · **Binds:** the client · **Transport:** ${transport}`,
    '',
    scenario.exercises,
    '',
    '## The tool',
    '',
    `\`mcprely probe-client\` offers it as the tool \`${scenario.name}\`: ${scenario.description}`,
    '',
    '## Decided by',
    '',
    ...scenario.decisive.map((judge) => `- [\`${judge}\`](${judge}.md)`),
    '',
    ...(others.length === 0 ? [] : ['## Also judged', '', ...others.map((judge) => `- [\`${judge}\`](${judge}.md)`), '']),
    '## Outcomes',
    '',
    ...(Object.keys(SCENARIO_OUTCOMES) as CheckStatus[]).map((status) => `- **${STATUS_WORDS[status]}**: ${SCENARIO_OUTCOMES[status]}.`),
    '',
  ].join('\n');
}
