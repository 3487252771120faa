import { declareProbeCheck } from '../probe-check-declaration.js';

export const progress = declareProbeCheck({
  id: 'progress',
  title: 'progress strictly increases, carries its own token, stops at completion',
  description:
    'Runs the long tool to completion with a progress token of its own: every progress value is greater than the last, ' +
    "none comes after the response, and the request is answered once. A run that is not answered within the probe's limit " +
    'and sends nothing at all for the idle timeout a host keeps fails: the host gives up on every call of the tool.',
  basis:
    'progress "MUST increase with each notification"; notifications MUST reference only active requests and "MUST stop after completion"',
  fix:
    'send each progress value greater than the last, with the token of the request it reports on, and none after its response; ' +
    'while the work runs, send progress before the idle timeout passes, and answer every call',
  outcomes: ['pass', 'fail', 'inconclusive'],
  messages: {
    noLongTool: 'no long-running tool: {{why}}',
    requestEnded: '{{why}}',
    notIncreasing: 'progress {{value}} follows {{previous}}: not strictly increasing',
    progressAfterResponse: '{{count|progress notification}} after the response',
    repeatedResponses: '{{count|more response}} after the first',
    unfinished:
      "{{tool}} had not finished after {{limitMs}} ms, the probe's limit for one run ({{limitReason}}): " +
      'progress up to then was right, its end was not seen; raise --max-time or give it shorter work with --arguments',
    stalled:
      '{{tool}} never answered: no response within {{limitMs}} ms, and nothing at all for the last {{silentMs}} ms, past the ' +
      "idle timeout of {{idleMs}} ms ({{timeoutsFrom}}): a host's idle timeout ends every call of it",
    toolFailed: '{{tool}} answered with {{failure}}: nothing to check; give it working --arguments',
    noProgress: '{{tool}} answered in {{durationMs}} ms and sent no progress (a server may send none): no progress to judge',
    increasing: "{{count}} increasing values with the request's token, none after the response",
  },
  asserts: ['server-progress-increases', 'server-progress-for-active-requests', 'server-streams-progress'],
  putsCallInFlight: true,
});
