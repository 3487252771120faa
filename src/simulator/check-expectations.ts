import { plural } from '../text/plural.js';
import { simulatedCapacity } from '../fixtures/limits.js';
import type { Expectation, Fixture } from '../fixtures/fixture-types.js';
import type { ExpectationResult } from './fixture-run.js';
import type { HerdOutcome } from './policy-backoff.js';
import { DEGENERATE_FLOORS } from '../policy/degenerate-floors.js';
import type { PolicyBuffer } from './policy-buffer.js';
import type { ChargeOutcome, PolicyLedgers } from './policy-ledger.js';
import { listenReissueProblems } from './request-reconnect.js';
import type { RequestWorld } from './request-world.js';
import type { TaskWorld } from './task-world.js';

/** Everything a fixture run observed, for checking its expectations. */
export interface Observations {
  readonly fixture: Fixture;
  readonly requests: RequestWorld;
  readonly ledgers: PolicyLedgers;
  readonly buffer: PolicyBuffer;
  readonly tasks: TaskWorld;
  readonly charges: ReadonlyMap<string, { readonly outcome: ChargeOutcome; readonly snapshot: string | undefined }>;
  readonly taskStatusAfter: ReadonlyMap<string, ReadonlyMap<string, string | undefined>>;
  readonly herd: HerdOutcome | undefined;
  readonly endedAt: number;
}

export function checkExpectations(observed: Observations): ExpectationResult[] {
  return observed.fixture.expect.map((expectation) => {
    const [passed, detail] = check(expectation, observed);
    return { expectation, passed, detail };
  });
}

function check(expectation: Expectation, observed: Observations): [boolean, string] {
  const { requests, buffer, tasks, charges, ledgers } = observed;
  switch (expectation.check) {
    case 'terminal-state': {
      const record = requests.coordinator.get(expectation.request);
      const view = requests.views.get(expectation.request);
      if (view?.refusedBecause !== undefined) return [false, `the server refused request ${expectation.request}: ${view.refusedBecause}`];
      if (record === undefined || view === undefined) return [false, `request ${expectation.request} never started`];
      if (record.state === 'in_progress')
        return [false, `request ${expectation.request} is still in progress at ${observed.endedAt} ms: it never ended`];
      const reason = record.cancelReason;
      const at = view.endedAt;
      const ok =
        record.state === expectation.state &&
        (expectation.reason === undefined || reason === expectation.reason) &&
        (expectation.atMs === undefined || at === expectation.atMs);
      return [ok, `request ${expectation.request} ended ${record.state}${reason === undefined ? '' : ` (${reason})`} at ${at} ms`];
    }
    case 'response': {
      const delivered = requests.views.get(expectation.request)?.responsesDelivered ?? 0;
      return [
        delivered > 0 === expectation.present,
        delivered === 0 ? 'no response reached the client' : `${plural(delivered, 'response')} reached the client`,
      ];
    }
    case 'silent-after-cancel':
      return silentAfter(requests.views.get(expectation.request)?.messagesAfterCancel ?? 0, 'the cancellation');
    case 'late-cancel-ignored': {
      const view = requests.views.get(expectation.request);
      const state = requests.coordinator.get(expectation.request)?.state;
      const replies = view?.lateCancelReplies ?? 0;
      // Late: the work had finished, or the server had ended the request itself (a subscription it closed).
      const ended = state === 'completed' || view?.endedByServer !== undefined;
      return [
        replies === 0 && ended,
        replies === 0
          ? `the late cancellation changed nothing (request ${state}${view?.endedByServer === undefined ? '' : ', ended by the server'}) and got no reply`
          : `the late cancellation was answered with ${plural(replies, 'error response')}`,
      ];
    }
    case 'silent-after-response':
      return silentAfter(requests.views.get(expectation.request)?.messagesAfterResponse ?? 0, 'its response');
    case 'work-stopped': {
      const view = requests.views.get(expectation.request);
      if (view === undefined) return [false, `request ${expectation.request} never started`];
      if (view.cancelledByClientAt === undefined) return [false, 'the client never cancelled'];
      const stopsWork = observed.fixture.parameters.request?.stopsWork;
      if (!view.workRanOn) return [true, 'the work stopped after the cancellation'];
      if (stopsWork === 'never' && observed.fixture.parameters.request?.handler !== 'never-checks')
        return [true, 'the work ran on: the policy declares it uncancellable (a receiver MAY ignore a cancellation it cannot act on)'];
      return [false, 'the work ran on after the cancellation was accepted'];
    }
    case 'late-response-ignored': {
      const view = requests.views.get(expectation.request);
      if (view === undefined) return [false, `request ${expectation.request} never started`];
      if (view.cancelledByClientAt === undefined && view.abandonedAt === undefined) return [false, 'the client never timed out'];
      if (view.responsesDelivered === 0) return [false, 'no late response arrived, so nothing shows what the client does with one'];
      return [
        view.lateHandedToCaller === 0,
        view.lateHandedToCaller === 0
          ? 'the late response arrived and the client ignored it'
          : 'the late response was handed to the caller after it was told the request timed out',
      ];
    }
    case 'latest-progress-kept': {
      const lost = buffer.latestLost();
      return [
        lost === undefined,
        lost === undefined
          ? 'the newest progress event reached the consumer'
          : `the newest progress (of ${lost}) never reached the consumer: the newest was dropped, older kept`,
      ];
    }
    case 'listen-reissued': {
      const reconnect = requests.views.get(expectation.request)?.reconnect;
      if (reconnect === undefined) return [false, 'the client never re-issued the subscription'];
      const problems = listenReissueProblems(reconnect, expectation.request);
      return [
        problems.length === 0,
        problems.length === 0
          ? `re-issued as ${reconnect.newId} with the filter restored, no tool name, duplicates dropped by ${reconnect.listen!.dedupeBy}`
          : `re-issued as ${reconnect.newId}: ${problems.join('; ')}`,
      ];
    }
    case 'reconnect-recovers': {
      const reconnect = requests.views.get(expectation.request)?.reconnect;
      if (reconnect === undefined) return [false, 'the client never reconnected'];
      if (!reconnect.accepted)
        return [false, `re-issued with the old id ${reconnect.newId} and no Last-Event-ID: it collides with the lost request`];
      return [
        true,
        reconnect.newId === expectation.request
          ? 'resumed the stream with Last-Event-ID'
          : `re-issued as the new request ${reconnect.newId}`,
      ];
    }
    case 'cancel-signal': {
      const signal = requests.views.get(expectation.request)?.cancelSignal;
      return [
        signal === expectation.signal,
        signal === undefined
          ? 'the client never cancelled'
          : `the client cancelled with ${signal === 'close-stream' ? 'a closed response stream' : 'a notifications/cancelled message'}`,
      ];
    }
    case 'executions':
      return [ledgers.executions === expectation.count, `the business effect ran ${plural(ledgers.executions, 'time')}`];
    case 'results-equal': {
      const snapshots = expectation.steps.map((step) => charges.get(step)?.snapshot);
      const equal = snapshots.every((snapshot) => snapshot !== undefined && snapshot === snapshots[0]);
      return [
        equal,
        equal
          ? `steps ${expectation.steps.join(', ')} returned ${snapshots[0]}`
          : `steps ${expectation.steps.join(', ')} returned ${snapshots.map((snapshot) => snapshot ?? 'no result').join(' vs ')}`,
      ];
    }
    case 'rejected': {
      const outcome = charges.get(expectation.step)?.outcome;
      if (outcome !== undefined && 'rejected' in outcome) return [true, `step ${expectation.step} was rejected: ${outcome.rejected}`];
      const returned =
        outcome === undefined
          ? ''
          : `: it returned ${JSON.stringify(outcome.result)}${outcome.replayed ? ' (a replay)' : ' (a new execution)'}`;
      return [false, `step ${expectation.step} was not rejected${returned}`];
    }
    case 'buffer-bounded': {
      const declared = observed.fixture.parameters.bufferCapacity;
      const capacity = simulatedCapacity(declared);
      if (capacity === null) return [false, `no capacity is declared: the queue grew to ${buffer.maxSize} events`];
      if (capacity < 2) return [false, `a capacity of ${capacity} cannot hold a progress event and the final response`];
      const shown = capacity === declared ? `capacity ${capacity}` : `capacity ${declared}, simulated as ${capacity}`;
      return [buffer.maxSize <= capacity, `at most ${buffer.maxSize} events were buffered (${shown})`];
    }
    case 'within-limits':
      return [false, expectation.reason];
    case 'finals-preserved': {
      const missing = buffer.pushedFinals.filter((id) => !buffer.deliveredFinals.includes(id));
      return [
        missing.length === 0,
        missing.length === 0
          ? `every final response was delivered (${buffer.pushedFinals.length})`
          : `the final ${missing.length === 1 ? 'response' : 'responses'} of ${missing.join(', ')} never reached the consumer`,
      ];
    }
    case 'refetch-marked':
      return [
        buffer.losses === 0 || buffer.refetchMarked,
        buffer.losses === 0
          ? 'nothing was lost'
          : `${plural(buffer.losses, 'event')} ${buffer.losses === 1 ? 'was' : 'were'} lost or coalesced; ` +
            `the stream was ${buffer.refetchMarked ? '' : 'not '}marked for a refetch`,
      ];
    case 'reconnect-new-request': {
      const reconnect = requests.views.get(expectation.request)?.reconnect;
      if (reconnect === undefined) return [false, 'the client never reconnected'];
      const ok = reconnect.newId !== expectation.request && reconnect.accepted;
      return [ok, ok ? `re-issued as the new request ${reconnect.newId}` : `re-issued with the old id ${reconnect.newId}`];
    }
    case 'no-last-event-id': {
      const reconnect = requests.views.get(expectation.request)?.reconnect;
      return [
        reconnect !== undefined && !reconnect.lastEventId,
        reconnect?.lastEventId ? 'the client tried to resume with Last-Event-ID' : 'no Last-Event-ID was sent',
      ];
    }
    case 'refetch-planned': {
      const refetch = requests.views.get(expectation.request)?.reconnect?.refetch ?? [];
      return [refetch.length > 0, refetch.length > 0 ? `refetched ${refetch.join('; ')}` : 'nothing was refetched'];
    }
    case 'task-status': {
      const status = observed.taskStatusAfter.get(expectation.after)?.get(expectation.task);
      return [status === expectation.status, `task ${expectation.task} was ${status ?? 'unknown'} after step ${expectation.after}`];
    }
    case 'progress-delivered': {
      const view = requests.views.get(expectation.request);
      if (view === undefined) return [false, `request ${expectation.request} never started`];
      if (view.progressSent === 0) return [false, 'the server sent no progress to deliver'];
      const late = view.progressSent - view.progressOnTime;
      return [
        late === 0,
        late === 0
          ? `every progress notification reached the client as it was sent (${plural(view.progressSent, 'notification')})`
          : `${late} of ${view.progressSent} progress notifications did not reach the client when sent`,
      ];
    }
    case 'progress-increasing': {
      const { seen } = progressOf(observed, expectation.token);
      if (seen.length < 2)
        return [
          false,
          `the client received ${plural(seen.length, 'progress value')} for ${expectation.token}: too few to show an increase`,
        ];
      const back = seen.findIndex((value, index) => index > 0 && value <= seen[index - 1]!);
      return [
        back === -1,
        back === -1
          ? `the client received increasing progress for ${expectation.token}: ${seen.join(', ')}`
          : `progress for ${expectation.token} did not increase: ${seen[back]} came after ${seen[back - 1]} (${seen.join(', ')})`,
      ];
    }
    case 'progress-on-request-stream': {
      const { onListen, sent: total } = progressOf(observed, expectation.token);
      if (total === 0) return [false, `the server sent no progress for ${expectation.token}`];
      return [
        onListen === 0,
        onListen === 0
          ? `every progress notification for ${expectation.token} (${total}) came on its request's own response stream`
          : `${onListen} of ${total} progress notifications for ${expectation.token} came on the subscriptions/listen stream, not the request's own`,
      ];
    }
    case 'silent-after-terminal': {
      const reporter = tasks.progress.get(expectation.task);
      const after = reporter?.afterTerminal ?? 0;
      return [
        after === 0,
        after === 0
          ? `no progress for ${expectation.task} followed its terminal status`
          : `the server sent ${plural(after, 'progress notification')} for ${expectation.task} after its terminal status (${tasks.status(expectation.task)})`,
      ];
    }
    case 'herd-spread': {
      const herd = observed.herd;
      if (herd === undefined) return [false, 'no herd was simulated'];
      const share = herd.largestGroup / herd.clients;
      return [
        share <= 0.1,
        `at the last attempt at most ${herd.largestGroup} of ${herd.clients} clients (${Math.round(share * 100)} %) came back in the same ` +
          `millisecond, between ${herd.lastWindow.from} and ${herd.lastWindow.to} ms`,
      ];
    }
    case 'herd-first-spread': {
      const herd = observed.herd;
      if (herd === undefined) return [false, 'no herd was simulated'];
      const first = herd.ceilings[0] ?? 0;
      const came =
        `the first attempt waits up to ${first} ms: ${herd.clients} clients came back between ${herd.firstWindow.from} and ` +
        `${herd.firstWindow.to} ms, at most ${herd.firstLargestGroup} in the same millisecond`;
      return first >= DEGENERATE_FLOORS.backoffBaseMs ? [true, came] : [false, `${came}, one burst to a recovering server`];
    }
    case 'backoff-capped': {
      const herd = observed.herd;
      if (herd === undefined) return [false, 'no herd was simulated'];
      const last = herd.ceilings.at(-1) ?? 0;
      const before = herd.ceilings.at(-2) ?? last;
      return [
        last <= before,
        last <= before
          ? `the waits stop growing at ${last} ms`
          : `the waits keep doubling: ${before} ms, then ${last} ms at attempt ${herd.ceilings.length} (no cap)`,
      ];
    }
    case 'server-cancel-allowed': {
      const view = requests.views.get(expectation.request);
      if (view === undefined) return [false, `request ${expectation.request} never started`];
      const forbidden = view.serverCancelsForbidden ?? [];
      return [
        forbidden.length === 0,
        forbidden.length === 0
          ? `the server sent no cancellation of ${expectation.request} its revision forbids`
          : `the server cancelled ${expectation.request} itself: ${forbidden.join('; ')}`,
      ];
    }
    case 'task-work-stopped': {
      const ranOn = tasks.workRanOn.has(expectation.task);
      return [
        !ranOn,
        ranOn
          ? `the worker of ${expectation.task} ran on past its checkpoint after the cancellation: its handler never checks`
          : `the worker of ${expectation.task} did not run on past a checkpoint after the cancellation`,
      ];
    }
    case 'task-result-suppressed': {
      const leaked = tasks.resultsAfterCancel.get(expectation.task) ?? 0;
      return [
        leaked === 0,
        leaked === 0
          ? `no result of ${expectation.task}'s work reached the client after its cancellation took effect`
          : `the client received a result for the cancelled ${expectation.task} (${plural(leaked, 'tasks/get answer')} carried it)`,
      ];
    }
    case 'client-sees-terminal': {
      const final = tasks.client.get(expectation.task)?.final;
      const actual = tasks.status(expectation.task);
      const unknown = tasks.unknownAnswers.get(expectation.task) ?? 0;
      if (final === undefined && unknown > 0)
        return [false, `the server no longer knew ${expectation.task}: ${unknown} tasks/get or tasks/cancel answered "unknown task"`];
      if (final === undefined)
        return [false, `the client never learned a terminal status of ${expectation.task} (it is ${actual ?? 'unknown'})`];
      return [
        final.status === expectation.status && final.status === actual,
        `the client ${final.assumed ? 'assumed' : 'read'} ${final.status}; the task is ${actual}`,
      ];
    }
  }
}

/**
 * The progress of a token, from the request or the task that carries it: the values the client received (tied to
 * their request), how many the server sent, and how many of those rode the subscriptions/listen stream.
 */
function progressOf(observed: Observations, token: string): { seen: readonly number[]; sent: number; onListen: number } {
  for (const view of observed.requests.views.values())
    if (view.progressToken === token) return { seen: view.progressSeen, sent: view.progressSent, onListen: view.progressOnListen };
  for (const reporter of observed.tasks.progress.values())
    if (reporter.token === token) return { seen: reporter.seen, sent: reporter.seen.length, onListen: reporter.onListen };
  return { seen: [], sent: 0, onListen: 0 };
}

/** Nothing more may come for a request after `event`: how many messages did. */
function silentAfter(count: number, event: string): [boolean, string] {
  return [
    count === 0,
    count === 0
      ? `the server sent nothing for the request after ${event}`
      : `the server sent ${plural(count, 'message')} for the request after ${event}`,
  ];
}
