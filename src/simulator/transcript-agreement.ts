import type { FixtureRun } from './fixture-run.js';
import { protocolOfFixture } from './request-message.js';
import { METHODS } from '../protocol/methods.js';

/**
 * Lines of a run's transcript that show behaviour its operation's policy and method do not have: progress
 * where none is emitted (or on a listen stream), a progress token asked for where none is, a tool name on a
 * re-issued subscription that carries none, notifications/cancelled for a Task (or from a server that sends
 * none), a response after an accepted cancellation from a server that suppresses it. Pure; the tests hold every example's and variant's runs to it.
 * Each is a line the policy cannot have produced, whether the run passed or failed.
 */
export function transcriptDisagreements(run: FixtureRun): string[] {
  const { fixture } = run;
  const p = fixture.parameters;
  const protocol = protocolOfFixture(fixture);
  const problems: string[] = [];
  const cancelled = new Set<string>();
  for (const entry of run.transcript) {
    const where = `t=${entry.at}ms ${entry.lane}: ${entry.text.slice(0, 120)}`;
    if (entry.lane === 'server' && / → cancelled\b.*no response will follow/.test(entry.text)) {
      const id = /^request (\S+):/.exec(entry.text)?.[1];
      if (id !== undefined) cancelled.add(id);
    }
    if (entry.lane !== 'client → server' && entry.lane !== 'server → client') continue;
    const json = entry.text.replace(/^POST( with Last-Event-ID: \d+)? /, '');
    if (!json.startsWith('{')) continue;
    let message: { id?: unknown; method?: string; params?: Record<string, unknown>; result?: unknown };
    try {
      message = JSON.parse(json.replace(/ \(on its way: the client has not received it yet\)$/, '')) as typeof message;
    } catch {
      continue;
    }
    if (message.method === METHODS.progress) {
      if (!p.emitsProgress) problems.push(`progress although the policy emits none (${where})`);
      if (protocol === 'listen') problems.push(`progress on a listen stream (${where})`);
    }
    if (entry.lane === 'client → server' && message.method === fixture.method) {
      const meta = message.params?.['_meta'] as { progressToken?: unknown } | undefined;
      if (meta?.progressToken !== undefined && (!p.emitsProgress || protocol === 'listen'))
        problems.push(`a progress token asked for where no progress is sent (${where})`);
      if (protocol === 'listen' && message.params?.['name'] !== undefined && p.request?.carriesToolName !== true)
        problems.push(`a tool name on a subscription that carries none (${where})`);
      if (protocol === 'read' && typeof message.params?.['uri'] !== 'string') problems.push(`a resources/read without a uri (${where})`);
    }
    if (
      protocol === 'task' &&
      entry.lane === 'client → server' &&
      message.method === METHODS.cancelled &&
      p.task.cancelVia !== METHODS.cancelled
    )
      problems.push(`notifications/cancelled for a Task (${where})`);
    if (entry.lane === 'server → client' && message.method === METHODS.cancelled && p.request?.serverSendsCancelled === false)
      problems.push(`notifications/cancelled from a server whose policy sends none (${where})`);
    if (
      entry.lane === 'server → client' &&
      message.result !== undefined &&
      cancelled.has(String(message.id)) &&
      p.suppressResponseAfterCancel
    )
      problems.push(`a response after an accepted cancellation from a server that suppresses it (${where})`);
  }
  return problems;
}
