import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Fixture, Step } from '../fixtures/fixture-types.js';
import { canonicalJson } from '../json/canonical-json.js';
import { checkExpectations, type Observations } from './check-expectations.js';
import { InvalidArgumentError } from '../reference/errors.js';
import { FixtureError } from './fixture-error.js';
import type { FixtureRun } from './fixture-run.js';
import { runHerd, type HerdOutcome } from './policy-backoff.js';
import { PolicyBuffer } from './policy-buffer.js';
import { PolicyLedgers, type ChargeOutcome, type LedgerEnvironment } from './policy-ledger.js';
import { requestParams } from './request-message.js';
import { RequestWorld } from './request-world.js';
import type { ScriptRun } from './script-run.js';
import { TaskWorld } from './task-world.js';
import { Transcript } from './transcript.js';
import { ERROR_CODES } from '../protocol/error-codes.js';

/** The steps as played: each wait on a ledger is yielded to the driver, which hands back what it resolved to. */
type Waits<T> = Generator<Promise<unknown>, T, unknown>;

function* wait<T>(promise: Promise<T>): Waits<T> {
  return (yield promise) as T;
}

/** The steps that wait on a ledger: a script (`runScript`) has none. */
const WAITING_STEPS: ReadonlySet<Step['do']> = new Set(['charge', 'race', 'reopen', 'retry-after-lost-response']);

/**
 * Runs one fixture on the reference implementation: the steps in order on the logical clock, each a wire
 * message or a state change in the transcript, then every expectation checked against what happened.
 * Ledger files live in a temporary folder removed afterwards; nothing of it reaches the transcript, so
 * reruns produce the same transcript byte for byte.
 */
export async function runFixture(fixture: Fixture, environment: LedgerEnvironment = {}): Promise<FixtureRun> {
  // A fixture the limits refused is not run at all: it fails with its reason.
  const refused = fixture.expect.find((expectation) => expectation.check === 'within-limits');
  if (refused !== undefined)
    return { fixture, transcript: [], results: [{ expectation: refused, passed: false, detail: refused.reason }], passed: false };
  const playing = play(fixture, environment);
  try {
    const steps = playing.steps;
    let next = steps.next();
    while (!next.done) {
      let resolved: unknown;
      try {
        resolved = await next.value;
      } catch (error) {
        next = steps.throw(error);
        continue;
      }
      next = steps.next(resolved);
    }
    const observations = next.value;
    const results = checkExpectations(observations);
    return {
      fixture,
      transcript: playing.transcript.entries,
      results,
      passed: results.every((result) => result.passed),
      ...(observations.ledgers.used ? { ledger: observations.ledgers.store } : {}),
    };
  } finally {
    await playing.close();
  }
}

/**
 * Runs a script, a fixture none of whose steps waits on a ledger, at once: the same steps on the same worlds as
 * `runFixture`, read as how each request and task ended instead of checked against expectations (a script has none).
 */
export function runScript(script: Fixture): ScriptRun {
  const waiting = script.steps.findIndex((step) => WAITING_STEPS.has(step.do));
  if (waiting !== -1)
    throw new FixtureError(`step ${waiting + 1} (${script.steps[waiting]!.do}) waits on a ledger: only runFixture runs it`, [
      'steps',
      waiting,
      'do',
    ]);
  const playing = play(script, {});
  try {
    const next = playing.steps.next();
    if (!next.done) throw new Error('a script step waited on a ledger');
    const { requests, tasks } = next.value;
    return {
      transcript: playing.transcript.entries,
      requests: new Map([...requests.views.keys()].map((name) => [name, requests.end(name)!])),
      tasks: new Map([...tasks.client.keys()].map((task) => [task, tasks.end(task)!])),
    };
  } finally {
    // A script opened no ledger and made no folder: only the task store is open.
    playing.tasks.close();
  }
}

/** A fixture being played: its transcript and worlds, its steps, and what closes them. */
interface Playing {
  readonly transcript: Transcript;
  readonly tasks: TaskWorld;
  readonly steps: Waits<Observations>;
  close(): Promise<void>;
}

function play(fixture: Fixture, environment: LedgerEnvironment): Playing {
  const transcript = new Transcript();
  let workDir: string | undefined;
  const folder = () => (workDir ??= mkdtempSync(join(tmpdir(), 'mcprely-fixture-')));
  const requests = new RequestWorld(fixture, transcript);
  const ledgers = new PolicyLedgers(folder, fixture.operation, fixture.parameters, transcript, environment);
  const buffer = new PolicyBuffer(fixture.parameters, transcript);
  const tasks = new TaskWorld(fixture, transcript);
  const charges = new Map<string, { outcome: ChargeOutcome; snapshot: string | undefined }>();
  const chargeInputs = new Map<string, { arguments: Record<string, unknown>; key: string | undefined; request: string }>();
  let herd: HerdOutcome | undefined;
  const taskStatusAfter = new Map<string, Map<string, string | undefined>>();
  return {
    transcript,
    tasks,
    steps: playSteps(),
    async close() {
      tasks.close();
      try {
        await ledgers.close();
      } finally {
        if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
      }
    },
  };

  function* playSteps(): Waits<Observations> {
    let bufferDescribed = false;
    let clock = 0;
    for (const [index, step] of fixture.steps.entries()) {
      const path = ['steps', index];
      if (step.at < clock)
        throw new FixtureError(`step ${index + 1} is at ${step.at} ms, before the step before it (${clock} ms); steps run in time order`, [
          ...path,
          'at',
        ]);
      clock = step.at;
      if ((step.do === 'push-progress' || step.do === 'push-final' || step.do === 'drain') && !bufferDescribed) {
        transcript.note(step.at, 'buffer', buffer.describe());
        bufferDescribed = true;
      }
      try {
        yield* runStep(step, path);
      } catch (error) {
        // The reference refusing a value of the fixture (a key too long, a number out of range) is the fixture's fault, at this step.
        if (error instanceof InvalidArgumentError) throw new FixtureError(`step ${index + 1}: ${error.message}`, path);
        throw error;
      }
      if (step.id !== undefined) taskStatusAfter.set(step.id, new Map([...tasks.client.keys()].map((task) => [task, tasks.status(task)])));
    }
    return { fixture, requests, ledgers, buffer, tasks, charges, taskStatusAfter, herd, endedAt: clock };
  }

  function* runStep(step: Step, path: readonly (string | number)[]): Waits<void> {
    const at = step.at;
    switch (step.do) {
      case 'start':
        return requests.start(at, step.request, step.progressToken, [...path, 'request']);
      case 'progress':
        return requests.progress(at, step.request, step.value, [...path, 'request']);
      case 'keepalive':
        return requests.keepAlive(at, step.request, [...path, 'request']);
      case 'tick':
        return requests.tick(at, step.request, [...path, 'request']);
      case 'cancel':
        return requests.cancel(at, step.request, step.reason, [...path, 'request'], step.crossing === true);
      case 'complete':
        return requests.complete(
          at,
          step.request,
          step.result,
          [...path, 'request'],
          step.inTransit === true,
          step.computedBeforeCancel === true,
        );
      case 'deliver':
        return requests.deliver(at, step.request, [...path, 'request']);
      case 'retry':
        return requests.retry(at, step.of, step.request, [...path, 'of']);
      case 'disconnect':
        return tasks.disconnect(at);
      case 'drop-stream':
        return requests.dropStream(at, step.request, [...path, 'request']);
      case 'reconnect':
        return requests.reconnect(at, step.request, [...path, 'request']);
      case 'charge': {
        if (step.id !== undefined) chargeInputs.set(step.id, { arguments: { ...step.arguments }, key: step.key, request: step.request });
        const outcome = yield* charge(at, step.connection, step.request, step.arguments, step.key);
        record(step.id, outcome);
        transcript.wire(
          at,
          'server → client',
          'rejected' in outcome
            ? { jsonrpc: '2.0', id: step.request, error: { code: ERROR_CODES.invalidParams, message: outcome.rejected } }
            : { jsonrpc: '2.0', id: step.request, result: outcome.result },
        );
        return;
      }
      case 'retry-after-lost-response':
        return yield* retryAfterLostResponse(at, step, [...path, 'of']);
      case 'herd': {
        const backoff = step.backoff === 'retry' ? fixture.parameters.retry.backoff : fixture.parameters.reconnect.backoff;
        herd = runHerd(
          at,
          backoff,
          step.clients,
          step.attempts,
          transcript,
          step.backoff === 'retry' ? 'see the same failure and retry' : 'lose their streams at once and reconnect',
        );
        return;
      }
      case 'race': {
        const outcomes = yield* wait(ledgers.race(at, step.connections, { ...step.arguments }, step.key));
        for (const connection of step.connections)
          record(step.id === undefined ? undefined : `${step.id}/${connection}`, outcomes.get(connection)!);
        return;
      }
      case 'mutate-result': {
        const target = charges.get(step.of);
        if (target === undefined || 'rejected' in target.outcome)
          throw new FixtureError(`no result of a step named ${step.of} to mutate`, [...path, 'of']);
        const result = target.outcome.result as Record<string, unknown>;
        for (const key of Object.keys(result)) if (typeof result[key] === 'number') result[key] = (result[key] as number) * 1000;
        result['editedByCaller'] = true;
        transcript.note(at, 'client', `the caller edits the result of ${step.of} in place: ${canonicalJson(result)}`);
        return;
      }
      case 'reopen':
        return yield* wait(ledgers.reopen(at, step.connection));
      case 'push-progress':
        return buffer.push(at, { type: 'progress', progressToken: step.token, progress: step.value });
      case 'push-final':
        return buffer.push(at, { type: 'final', requestId: step.request, response: { jsonrpc: '2.0', id: step.request, result: {} } });
      case 'drain':
        buffer.drain(at);
        return;
      case 'task-create':
        return tasks.create(at, step.task, [...path, 'task'], step.progressToken);
      case 'task-progress':
        return tasks.taskProgress(at, step.task, step.value, [...path, 'task']);
      case 'task-cancel':
        return tasks.cancel(at, step.task, [...path, 'task']);
      case 'checkpoint':
        return tasks.checkpoint(at, step.task, [...path, 'task']);
      case 'task-finish':
        return tasks.finish(at, step.task, [...path, 'task'], step.computedBeforeCancel === true);
      case 'poll':
        return tasks.poll(at, step.task, [...path, 'task']);
      case 'task-expire':
        return tasks.expire(at, step.task, [...path, 'task']);
      case 'server-end':
        return requests.serverEnd(at, step.request, [...path, 'request']);
      case 'note':
        return transcript.note(at, step.lane, step.text);
    }
  }

  function* charge(
    at: number,
    connection: string,
    request: string,
    args: Readonly<Record<string, unknown>>,
    key: string | undefined,
  ): Waits<ChargeOutcome> {
    transcript.wire(at, 'client → server', {
      jsonrpc: '2.0',
      id: request,
      method: fixture.method,
      params: {
        ...requestParams(fixture, undefined),
        arguments: { ...args, ...(key === undefined ? {} : { [fixture.parameters.keyArgument ?? 'idempotencyKey']: key }) },
      },
    });
    return yield* wait(ledgers.charge(at, connection, { ...args }, key));
  }

  /**
   * The response of an earlier charge is lost; the client follows its retry policy: no automatic retry,
   * reconcile by key first (a committed record ends it), or re-send (with the key, when it has one).
   */
  function* retryAfterLostResponse(
    at: number,
    step: Extract<Step, { do: 'retry-after-lost-response' }>,
    path: readonly (string | number)[],
  ): Waits<void> {
    const first = chargeInputs.get(step.of);
    if (first === undefined) throw new FixtureError(`no charge step named ${step.of} whose response could be lost`, path);
    const retry = fixture.parameters.retry;
    transcript.note(at, 'client', `the response to request ${first.request} is lost: the client cannot tell whether it committed`);
    if (retry.automatic === null || retry.automatic === 'never') {
      transcript.note(at, 'client', 'the policy does not retry automatically: the caller is told the outcome is unknown');
      return;
    }
    if (retry.reconcileFirst && first.key !== undefined) {
      const found = yield* wait(ledgers.reconcile(at, step.connection, first.key));
      if (found !== undefined) {
        transcript.note(at, 'client', `reconciled by key ${first.key}: the first attempt committed, so nothing is re-sent`);
        record(step.id, { result: found, replayed: true });
        return;
      }
      transcript.note(at, 'client', `reconciled by key ${first.key}: nothing committed, so the request is re-sent`);
    } else if (retry.reconcileFirst) {
      transcript.note(
        at,
        'client',
        'the policy reconciles first, but without an idempotency key nothing identifies the lost attempt: the request is re-sent',
      );
    }
    const request = retry.newRequestId ? step.request : first.request;
    transcript.note(
      at,
      'client',
      `retries automatically (${retry.automatic}) as request ${request}` +
        (first.key === undefined ? ', with no idempotency key' : ` with the same key ${first.key}`),
    );
    const outcome = yield* charge(at, step.connection, request, first.arguments, first.key);
    record(step.id, outcome);
    transcript.wire(
      at,
      'server → client',
      'rejected' in outcome
        ? { jsonrpc: '2.0', id: request, error: { code: ERROR_CODES.invalidParams, message: outcome.rejected } }
        : { jsonrpc: '2.0', id: request, result: outcome.result },
    );
  }

  /** Keeps a step's outcome, with its result as it was at that moment (before any later edit by the caller). */
  function record(id: string | undefined, outcome: ChargeOutcome): void {
    if (id === undefined) return;
    charges.set(id, { outcome, snapshot: 'rejected' in outcome ? undefined : canonicalJson(outcome.result) });
  }
}
