import type { Fixture } from '../fixtures/fixture-types.js';
import { DurableTaskService, type TaskStatus } from '../reference/durable-task-service.js';
import { FixtureError } from './fixture-error.js';
import type { Transcript } from './transcript.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

interface ClientTaskView {
  waiting: boolean;
  /** What the client believes the final status is, and whether it read it or assumed it. */
  final?: { status: string; assumed: boolean };
}

/** The durable task side of a fixture: the reference DurableTaskService and a client that cancels and polls as its policy says. */
export class TaskWorld {
  #service: DurableTaskService | undefined;
  readonly client = new Map<string, ClientTaskView>();

  constructor(
    private readonly fixture: Fixture,
    private readonly transcript: Transcript,
  ) {}

  /** The reference task service, opened on first use (most fixtures have no task). */
  get service(): DurableTaskService {
    this.#service ??= DurableTaskService.open({ specVersion: this.fixture.specVersion });
    return this.#service;
  }

  status(task: string): TaskStatus | undefined {
    return this.service.get(task)?.status;
  }

  create(at: number, task: string, path: readonly (string | number)[]): void {
    if (this.client.has(task)) throw new FixtureError(`task ${task} is created twice`, path);
    this.service.create(task);
    this.client.set(task, { waiting: this.fixture.parameters.task.clientWaits !== 'none' });
    this.transcript.wire(at, 'server → client', {
      jsonrpc: '2.0',
      id: `create-${task}`,
      result: { task: { taskId: task, status: 'working' } },
    });
    this.transcript.note(at, 'tasks', `task ${task}: working (stored durably before the answer)`);
  }

  cancel(at: number, task: string, path: readonly (string | number)[]): void {
    const view = this.#view(task, path);
    const { cancelVia, ackIsTerminal } = this.fixture.parameters.task;
    if (cancelVia === 'notifications/cancelled') {
      this.transcript.wire(at, 'client → server', {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: `create-${task}` },
      });
      this.transcript.note(at, 'tasks', `ignored: notifications/cancelled must not be used for a task; ${task} keeps running`);
      return;
    }
    this.transcript.wire(at, 'client → server', { jsonrpc: '2.0', id: `cancel-${task}`, method: 'tasks/cancel', params: { taskId: task } });
    const answer = this.service.cancel(task);
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
    const before = this.status(task);
    const after = this.service.workerCheckpoint(task);
    this.transcript.note(at, 'tasks', `worker checkpoint of ${task}: ${before === after ? `still ${after}` : `${before} → ${after}`}`);
  }

  finish(at: number, task: string, path: readonly (string | number)[]): void {
    this.#view(task, path);
    const before = this.status(task);
    const after = this.service.finish(task);
    this.transcript.note(
      at,
      'tasks',
      `worker of ${task} finished its work: ${before === after ? `status stays ${after}` : `${before} → ${after}`}`,
    );
  }

  poll(at: number, task: string, path: readonly (string | number)[]): void {
    const view = this.#view(task, path);
    if (!view.waiting) {
      if (this.fixture.parameters.task.clientWaits === 'none' && view.final === undefined)
        this.transcript.note(at, 'client', `does not poll ${task} (the policy never waits for a terminal status)`);
      return;
    }
    this.transcript.wire(at, 'client → server', { jsonrpc: '2.0', id: `get-${task}-${at}`, method: 'tasks/get', params: { taskId: task } });
    const status = this.status(task)!;
    this.transcript.wire(at, 'server → client', { jsonrpc: '2.0', id: `get-${task}-${at}`, result: { task: { taskId: task, status } } });
    if (TERMINAL.has(status)) {
      view.waiting = false;
      view.final = { status, assumed: false };
    }
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
