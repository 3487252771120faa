import type { Fixture } from '../fixtures/fixture-types.js';
import { DurableTaskService } from '../reference/durable-task-service.js';
import { FixtureError } from './fixture-error.js';
import { factsOf } from '../spec/revision-facts.js';
import { SPEC_VERSIONS, type SpecVersion } from '../spec/revisions.js';
import type { TaskEnd } from './script-run.js';
import type { Transcript } from './transcript.js';
import { ERROR_CODES } from '../protocol/error-codes.js';
import { TERMINAL_TASK_STATUSES, type TaskStatus } from '../protocol/task-status.js';
import { METHODS } from '../protocol/methods.js';
import { progressOnListenStream, repeatedProgressNote, reportedProgress } from './progress-policy.js';

interface ClientTaskView {
  waiting: boolean;
  /** What the client believes the final status is, and whether it read it or assumed it. */
  final?: { status: string; assumed: boolean };
}

/** The durable task side of a fixture: the reference DurableTaskService and a client that cancels and polls as its policy says. */
export class TaskWorld {
  #service: DurableTaskService | undefined;
  readonly client = new Map<string, ClientTaskView>();
  /** Tasks whose state went with a dropped connection (a store that does not survive it). */
  readonly #lost = new Set<string>();
  /** Client requests that polled a task the server no longer knew. */
  readonly unknownAnswers = new Map<string, number>();
  /** Tasks whose cancellation the client asked for (tasks/cancel answered). */
  readonly #cancelAsked = new Set<string>();
  /** Tasks whose worker ran on past a checkpoint after their cancellation (its handler never checks). */
  readonly workRanOn = new Set<string>();
  /** Tasks cancelled whose work's result the policy keeps and hands out, and how often it reached the client. */
  readonly #resultKept = new Set<string>();
  readonly resultsAfterCancel = new Map<string, number>();
  /** When each task was created: the server keeps it task.ttlMs from then. */
  readonly #createdAt = new Map<string, number>();
  /**
   * Each task's progress as the client received it: the token of the request that created it, the values in
   * order, how many came after the task's terminal status, and how many on the subscriptions/listen stream.
   */
  readonly progress = new Map<string, { token: string; seen: number[]; afterTerminal: number; onListen: number; last?: number }>();

  constructor(
    private readonly fixture: Fixture,
    private readonly transcript: Transcript,
  ) {}

  /**
   * The reference task service, opened on first use (most fixtures have no task), with the tasks/cancel
   * semantics the policy declares: an acknowledgement the worker's checkpoint acts on, or a terminal
   * transition before the answer (the reference implements each as one revision defines it).
   */
  get service(): DurableTaskService {
    this.#service ??= DurableTaskService.open({ specVersion: this.#cancelSemantics() });
    return this.#service;
  }

  /** The revision whose tasks/cancel means what the policy declares (the fixture's own when it declares nothing). */
  #cancelSemantics(): SpecVersion {
    const declared = this.fixture.parameters.task.cancel;
    const wanted =
      declared === 'immediate-terminal' ? 'terminal-before-answer' : declared === 'acknowledge-then-checkpoint' ? 'acknowledge' : undefined;
    if (wanted === undefined) return this.fixture.specVersion;
    return SPEC_VERSIONS.find((revision) => factsOf(revision)['task-cancel'].value === wanted) ?? this.fixture.specVersion;
  }

  status(task: string): TaskStatus | undefined {
    if (this.#lost.has(task)) return undefined;
    return this.service.get(task)?.status;
  }

  /** How a task ended, as plain data (undefined for a task no step created). */
  end(task: string): TaskEnd | undefined {
    const view = this.client.get(task);
    if (view === undefined) return undefined;
    return { status: this.status(task), final: view.final, unknownAnswers: this.unknownAnswers.get(task) ?? 0 };
  }

  /** Whether the declared store keeps task state through a dropped connection (null: the policy does not say). */
  #survives(): boolean | null {
    const { store, survivesDisconnect } = this.fixture.parameters.task;
    if (store === undefined && survivesDisconnect === undefined) return true;
    if (store === 'in-memory' || survivesDisconnect === false) return false;
    if (store === 'durable' && survivesDisconnect !== null) return true;
    return null;
  }

  /** The client's connection drops: durable task state stays; state kept with the connection is gone. */
  disconnect(at: number): void {
    this.transcript.note(at, 'client', 'the connection drops; the client reconnects and keeps the task ids it was given');
    const survives = this.#survives();
    if (survives === true) {
      this.transcript.note(at, 'tasks', `task state is durable: ${[...this.client.keys()].join(', ')} outlive the connection`);
      return;
    }
    for (const task of this.client.keys()) this.#lost.add(task);
    this.transcript.note(
      at,
      'tasks',
      survives === false
        ? `task state was kept ${this.fixture.parameters.task.store === 'in-memory' ? 'in memory' : 'with the connection'}: ` +
            `${[...this.client.keys()].join(', ')} are gone`
        : `nothing says where task state lives or that it survives a disconnect: ${[...this.client.keys()].join(', ')} are treated as gone`,
    );
  }

  create(at: number, task: string, path: readonly (string | number)[], progressToken?: string): void {
    if (this.client.has(task)) throw new FixtureError(`task ${task} is created twice`, path);
    this.service.create(task);
    this.#createdAt.set(task, at);
    // A client waits only in a way its policy names (poll or listen): one that declares none, or does not say, has
    // no such mechanism and reads nothing after the create answer.
    const { clientWaits } = this.fixture.parameters.task;
    this.client.set(task, { waiting: clientWaits === 'poll' || clientWaits === 'listen' });
    if (progressToken !== undefined) this.progress.set(task, { token: progressToken, seen: [], afterTerminal: 0, onListen: 0 });
    this.transcript.wire(at, 'client → server', {
      jsonrpc: '2.0',
      id: `create-${task}`,
      method: this.fixture.method,
      params: {
        name: this.fixture.operation,
        arguments: {},
        task: {},
        ...(progressToken === undefined ? {} : { _meta: { progressToken } }),
      },
    });
    const survives = this.#survives();
    this.transcript.note(
      at,
      'tasks',
      `task ${task}: working (` +
        (survives === true
          ? 'stored durably before the answer'
          : survives === false
            ? 'kept in memory, not durably'
            : 'nothing says it is stored durably') +
        ')',
    );
    this.transcript.wire(at, 'server → client', {
      jsonrpc: '2.0',
      id: `create-${task}`,
      result: { task: { taskId: task, status: 'working' } },
    });
  }

  cancel(at: number, task: string, path: readonly (string | number)[]): void {
    const view = this.#view(task, path);
    this.#expireDue(at);
    const { cancelVia, ackIsTerminal } = this.fixture.parameters.task;
    if (cancelVia === null) {
      this.transcript.note(
        at,
        'client',
        `nothing says how the client cancels a task (task.cancelVia): it sends no tasks/cancel, and ${task} keeps running`,
      );
      return;
    }
    if (cancelVia === METHODS.cancelled) {
      this.transcript.wire(at, 'client → server', {
        jsonrpc: '2.0',
        method: METHODS.cancelled,
        params: { requestId: `create-${task}` },
      });
      this.transcript.note(at, 'tasks', `ignored: notifications/cancelled must not be used for a task; ${task} keeps running`);
      return;
    }
    this.transcript.wire(at, 'client → server', {
      jsonrpc: '2.0',
      id: `cancel-${task}`,
      method: METHODS.tasksCancel,
      params: { taskId: task },
    });
    if (this.#lost.has(task)) {
      this.#unknown(at, `cancel-${task}`, task);
      return;
    }
    if (this.fixture.parameters.task.used === true && this.fixture.parameters.task.cancel === null) {
      this.transcript.wire(at, 'server → client', { jsonrpc: '2.0', id: `cancel-${task}`, result: {} });
      this.transcript.note(at, 'tasks', `nothing says what tasks/cancel does (task.cancel): nothing is shown to stop ${task}`);
      return;
    }
    const answer = this.service.cancel(task);
    this.#cancelAsked.add(task);
    if ('acknowledged' in answer) {
      this.transcript.wire(at, 'server → client', { jsonrpc: '2.0', id: `cancel-${task}`, result: {} });
      this.transcript.note(at, 'tasks', `task ${task}: cancellation acknowledged, status still ${this.status(task)}`);
      if (ackIsTerminal) {
        view.waiting = false;
        view.final = { status: 'cancelled', assumed: true };
        this.transcript.note(at, 'client', `treats the acknowledgement as final: assumes ${task} is cancelled and stops polling`);
      }
      return;
    }
    this.transcript.wire(at, 'server → client', {
      jsonrpc: '2.0',
      id: `cancel-${task}`,
      result: { task: { taskId: task, status: answer.task.status } },
    });
    this.transcript.note(at, 'tasks', `task ${task}: → ${answer.task.status} before the answer`);
    view.waiting = false;
    view.final = { status: answer.task.status, assumed: false };
  }

  checkpoint(at: number, task: string, path: readonly (string | number)[]): void {
    this.#view(task, path);
    this.#expireDue(at);
    if (this.#lost.has(task)) return;
    // A worker whose handler never checks for cancellation does not look at it at a checkpoint: it runs on.
    if (this.#cancelAsked.has(task) && this.fixture.parameters.request?.handler === 'never-checks') {
      this.workRanOn.add(task);
      this.transcript.note(
        at,
        'tasks',
        `worker checkpoint of ${task}: its handler never checks for cancellation, so the worker runs on (status ${this.status(task)})`,
      );
      return;
    }
    const before = this.status(task);
    const after = this.service.workerCheckpoint(task);
    this.transcript.note(at, 'tasks', `worker checkpoint of ${task}: ${before === after ? `still ${after}` : `${before} → ${after}`}`);
  }

  finish(at: number, task: string, path: readonly (string | number)[], computedBeforeCancel = false): void {
    this.#view(task, path);
    this.#expireDue(at);
    if (this.#lost.has(task)) {
      this.transcript.note(at, 'tasks', `the work of ${task} finishes, but its task record is gone: nobody can learn the result`);
      return;
    }
    const before = this.status(task);
    const after = this.service.finish(task);
    // The work had its result before the cancellation took effect: the task is cancelled, and only suppression
    // keeps that result from the client.
    if (computedBeforeCancel && after === 'cancelled') {
      if (this.fixture.parameters.suppressResponseAfterCancel) {
        this.transcript.note(
          at,
          'tasks',
          `the result of ${task}, computed before its cancellation took effect, is dropped: the task stays cancelled`,
        );
        return;
      }
      this.#resultKept.add(task);
      this.transcript.note(
        at,
        'tasks',
        `the result of ${task} was computed before its cancellation took effect; the policy keeps it with the cancelled task and hands it out`,
      );
      return;
    }
    this.transcript.note(
      at,
      'tasks',
      `worker of ${task} finished its work: ${before === after ? `status stays ${after}` : `${before} → ${after}`}`,
    );
  }

  poll(at: number, task: string, path: readonly (string | number)[]): void {
    const view = this.#view(task, path);
    this.#expireDue(at);
    if (!view.waiting) {
      const { clientWaits } = this.fixture.parameters.task;
      if (view.final === undefined && clientWaits === 'none')
        this.transcript.note(at, 'client', `does not poll ${task} (the policy never waits for a terminal status)`);
      else if (view.final === undefined && clientWaits === null)
        this.transcript.note(at, 'client', `nothing says the client waits for ${task} (task.clientWaits): it polls nothing`);
      return;
    }
    this.transcript.wire(at, 'client → server', {
      jsonrpc: '2.0',
      id: `get-${task}-${at}`,
      method: METHODS.tasksGet,
      params: { taskId: task },
    });
    if (this.#lost.has(task)) {
      this.#unknown(at, `get-${task}-${at}`, task);
      return;
    }
    const status = this.status(task)!;
    const leaked = status === 'cancelled' && this.#resultKept.has(task);
    if (leaked) this.resultsAfterCancel.set(task, (this.resultsAfterCancel.get(task) ?? 0) + 1);
    this.transcript.wire(at, 'server → client', {
      jsonrpc: '2.0',
      id: `get-${task}-${at}`,
      result: { task: { taskId: task, status }, ...(leaked ? { result: { content: [{ type: 'text', text: 'done' }] } } : {}) },
    });
    if (TERMINAL_TASK_STATUSES.has(status)) {
      view.waiting = false;
      view.final = { status, assumed: false };
    }
  }

  /**
   * The task's worker reports progress with the token of the request that created it, which stays valid for the
   * task's lifetime and no longer: once the task is terminal a reporter that stops (as the policy says, for
   * completion and for cancellation) sends nothing. A reporter that does not keep progress increasing reports
   * its last value again; on Streamable HTTP the policy's stream carries it.
   */
  taskProgress(at: number, task: string, value: number, path: readonly (string | number)[]): void {
    this.#view(task, path);
    const reporter = this.progress.get(task);
    if (reporter === undefined) throw new FixtureError(`task ${task} was created without a progress token`, path);
    if (this.#lost.has(task)) return;
    const status = this.status(task)!;
    const p = this.fixture.parameters;
    if (TERMINAL_TASK_STATUSES.has(status)) {
      const stops = status === 'cancelled' ? p.progressStopsOnCancellation : p.request?.progressStopsOnCompletion !== false;
      if (stops) {
        this.transcript.note(at, 'tasks', `task ${task} is ${status}: its progress stopped, nothing is sent`);
        return;
      }
      this.transcript.note(at, 'tasks', `the policy keeps reporting progress for ${task} after it became ${status}`);
      reporter.afterTerminal++;
    }
    const { sent, repeated } = reportedProgress(p, reporter.last, value);
    if (repeated) this.transcript.note(at, 'tasks', repeatedProgressNote(sent, value));
    reporter.last = sent;
    const message = { jsonrpc: '2.0', method: METHODS.progress, params: { progressToken: reporter.token, progress: sent } };
    if (progressOnListenStream(p, this.fixture.specVersion, this.fixture.transport === 'streamable-http')) {
      reporter.onListen++;
      this.transcript.wire(at, 'server → client', `${JSON.stringify(message)} (on the subscriptions/listen stream)`);
    } else this.transcript.wire(at, 'server → client', message);
    reporter.seen.push(sent);
  }

  /** The task's time to live passed: the server deletes it and its result. */
  expire(at: number, task: string, path: readonly (string | number)[]): void {
    this.#view(task, path);
    this.#expireDue(at);
    if (this.#lost.has(task)) return;
    this.#lost.add(task);
    this.transcript.note(
      at,
      'tasks',
      `the TTL of ${task} (${this.fixture.parameters.task.ttlMs} ms from its creation) passed: the server deleted it and its result`,
    );
  }

  /**
   * The reference task store keeps a task task.ttlMs from its creation (null: the policy sets no TTL, kept until
   * read): every task whose TTL has passed by `at` is deleted with its result before anything else happens then.
   */
  #expireDue(at: number): void {
    const ttl = this.fixture.parameters.task.ttlMs ?? null;
    if (ttl === null) return;
    for (const [task, created] of this.#createdAt) {
      if (this.#lost.has(task) || at < created + ttl) continue;
      this.#lost.add(task);
      this.transcript.note(
        at,
        'tasks',
        `the TTL of ${task} (${ttl} ms from its creation at ${created} ms) passed at ${created + ttl} ms: the server deleted it and its result`,
      );
    }
  }

  #unknown(at: number, id: string, task: string): void {
    this.unknownAnswers.set(task, (this.unknownAnswers.get(task) ?? 0) + 1);
    this.transcript.wire(at, 'server → client', {
      jsonrpc: '2.0',
      id,
      error: { code: ERROR_CODES.invalidParams, message: `unknown task ${task}` },
    });
  }

  close(): void {
    this.#service?.close();
  }

  #view(task: string, path: readonly (string | number)[]): ClientTaskView {
    const view = this.client.get(task);
    if (view === undefined) throw new FixtureError(`task ${task} was not created by an earlier step`, path);
    return view;
  }
}
