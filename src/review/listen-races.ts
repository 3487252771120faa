import { listenReissueProblems } from '../simulator/request-reconnect.js';
import { RACE_REQUEST, type RaceInput, type RaceScript, requestEnd, startStep } from './race-script.js';

/** The event orders of a subscription (subscriptions/listen) on one transport: each a script on the reference coordinator. */
export function listenRaces(input: RaceInput): RaceScript[] {
  return [
    listenCloseThenServerEnd(input),
    ...(input.context.facts['subscriptions-listen'].value ? [listenServerEndThenClose(input)] : []),
    ...(input.transport === 'streamable-http' ? [listenDropThenReissue(input)] : []),
  ];
}

const request = RACE_REQUEST;

/** The server ends the subscription first; the client learns of it and has nothing to close. */
function listenServerEndThenClose(input: RaceInput): RaceScript {
  return {
    steps: [startStep(input), { at: 100, do: 'server-end', request }, { at: 150, do: 'cancel', request, reason: 'the view was closed' }],
    read: (run) => {
      const told = requestEnd(run).endedByServerTold === true;
      return {
        order: 'server end then client close',
        terminalState: 'ended by the server',
        finalResponse: told
          ? input.transport === 'stdio'
            ? 'notifications/cancelled for the listen id'
            : 'the listen stream closed'
          : 'nothing: the client is never told',
        clientBehaviour: told ? 'learns the subscription ended; sends nothing more for it' : 'keeps waiting on a subscription that is gone',
        asRequired: told,
      };
    },
  };
}

/** The client closes the subscription; the server must end it and send nothing more for it. */
function listenCloseThenServerEnd(input: RaceInput): RaceScript {
  return {
    steps: [
      startStep(input),
      { at: 100, do: 'cancel', request, reason: 'the view was closed' },
      { at: 200, do: 'complete', request, result: { done: true } },
    ],
    read: (run) => {
      const seen = requestEnd(run);
      return {
        order: 'client close then server end',
        terminalState: String(seen.state),
        finalResponse:
          seen.responsesDelivered > 0 || seen.messagesAfterCancel > 0
            ? 'the server wrote more for the closed subscription'
            : 'nothing after the close',
        clientBehaviour: input.transport === 'stdio' ? 'closes with notifications/cancelled for the listen id' : 'closes the listen stream',
        asRequired: seen.state === 'cancelled' && seen.responsesDelivered === 0 && seen.messagesAfterCancel === 0,
      };
    },
  };
}

/** The listen stream drops: a new subscription with a new id, the filter restored, no tool name, duplicates dropped, state refetched. */
function listenDropThenReissue(input: RaceInput): RaceScript {
  return {
    steps: [startStep(input), { at: 200, do: 'drop-stream', request }, { at: 250, do: 'reconnect', request }],
    read: (run) => {
      const reconnect = requestEnd(run).reconnect!;
      const listen = reconnect.listen;
      const problems = [
        ...listenReissueProblems(reconnect, request),
        ...(reconnect.lastEventId && !input.context.facts['last-event-id-resumption'].value ? ['it sent Last-Event-ID'] : []),
        ...(reconnect.refetch.length === 0 ? ['it refetches nothing'] : []),
      ];
      return {
        order: 'drop then re-issue',
        terminalState: 'the dropped subscription is gone',
        finalResponse: 'no resumable stream',
        clientBehaviour:
          `re-issues as ${reconnect.newId}` +
          (listen?.dedupeBy ? `, de-duplicates by ${listen.dedupeBy}` : '') +
          (reconnect.refetch.length > 0 ? `; refetch ${reconnect.refetch.join(', ')}` : '') +
          (problems.length > 0 ? `; ${problems.join(', ')}` : ''),
        asRequired: problems.length === 0,
      };
    },
  };
}
