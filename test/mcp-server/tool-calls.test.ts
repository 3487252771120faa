import { describe, expect, it } from 'vitest';
import type { McpTool } from '../../src/mcp-server/mcp-tool.js';
import { ToolCalls } from '../../src/mcp-server/tool-calls.js';

/** A tool that reports a step every `stepMs` for `steps` steps, stopping at its signal as a review does between fixtures. */
function stepper(steps: number, stepMs: number, ran: { steps: number }): McpTool {
  return {
    name: 'stepper',
    title: 'stepper',
    description: 'steps',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object' },
    async run(_args, context) {
      for (let step = 0; step < steps; step++) {
        context.signal.throwIfAborted();
        context.progress(step, steps, `step ${step}`);
        ran.steps++;
        await new Promise((resolve) => setTimeout(resolve, stepMs));
      }
      return { ok: true, structured: { steps }, text: `${steps} steps` };
    },
  };
}

function started(steps: number, stepMs: number, token?: string) {
  const calls = new ToolCalls('.');
  const ran = { steps: 0 };
  const sent: Record<string, unknown>[] = [];
  let ended = false;
  calls.start(
    { kind: 'call', id: 1, tool: stepper(steps, stepMs, ran), args: {}, ...(token === undefined ? {} : { token }) },
    { send: (message) => sent.push(message), end: () => (ended = true) },
  );
  return { calls, ran, sent, ended: () => ended };
}

describe('a tool call as the server runs it', () => {
  it('answers after its progress, each at least 100 ms after the one before', async () => {
    const run = started(12, 30, 'p');
    await run.calls.settled();
    const progress = run.sent.filter((message) => message['method'] === 'notifications/progress');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.length).toBeLessThanOrEqual(5);
    expect(run.sent.at(-1)).toMatchObject({ id: 1, result: { structuredContent: { steps: 12 } } });
    expect(run.ended()).toBe(true);
  });

  it('sends no progress for a request without a token', async () => {
    const run = started(3, 5);
    await run.calls.settled();
    expect(run.sent.map((message) => message['method'] ?? 'answer')).toEqual(['answer']);
  });

  it('once cancelled: its work stops at the next step, nothing more is sent, not even an answer', async () => {
    const run = started(50, 20, 'p');
    await new Promise((resolve) => setTimeout(resolve, 70));
    const before = run.sent.length;
    run.calls.cancel(1);
    await run.calls.settled();
    expect(run.ran.steps).toBeLessThan(6);
    expect(run.sent.length).toBe(before);
    expect(run.sent.some((message) => 'result' in message)).toBe(false);
    expect(run.ended()).toBe(true);
  });

  it('once cancelled: a tool that still reports progress before it stops sends none of it', async () => {
    const calls = new ToolCalls('.');
    const sent: Record<string, unknown>[] = [];
    const late: McpTool = {
      name: 'late',
      title: 'late',
      description: 'reports progress after its signal aborted, then stops',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object' },
      async run(_args, context) {
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
        await new Promise((resolve) => setTimeout(resolve, 150));
        context.progress(1, 2, 'after the cancellation');
        context.signal.throwIfAborted();
        return { ok: true, structured: {}, text: '' };
      },
    };
    calls.start({ kind: 'call', id: 1, tool: late, args: {}, token: 'p' }, { send: (message) => sent.push(message), end: () => undefined });
    calls.cancel(1);
    await calls.settled();
    expect(sent).toEqual([]);
  });
});
