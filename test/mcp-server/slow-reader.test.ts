import { EventEmitter } from 'node:events';
import { connect } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { McpHttpServer } from '../../src/mcp-server/http-transport.js';
import type { McpTool } from '../../src/mcp-server/mcp-tool.js';
import { mcprelyToolServer } from '../../src/mcp-server/mcprely-tool-server.js';
import { serveMcpStdio } from '../../src/mcp-server/stdio-transport.js';
import { CoalescingWriter, markedWithLoss } from '../../src/mcp-serving/coalescing-writer.js';
import { requestGuard } from '../../src/listener/request-guard.js';
import { MCPRELY_META_KEYS } from '../../src/protocol/meta-keys.js';
import { workingFolder } from './mcp-server-harness.js';

/** A message as the tests read it back. */
interface Wire {
  readonly id?: unknown;
  readonly method?: string;
  readonly params?: { readonly progress: number };
  readonly result?: { readonly _meta?: Record<string, unknown>; readonly structuredContent?: unknown };
}

/** An output that takes everything until told it is backed up, then says so on every write until drained. */
class Output extends EventEmitter {
  readonly written: string[] = [];
  backedUp = false;
  write(chunk: string): boolean {
    this.written.push(chunk);
    return !this.backedUp;
  }
  drain(): void {
    this.backedUp = false;
    this.emit('drain');
  }
}

const progress = (token: string, step: number) => `progress ${token} ${step}`;

describe('the bounded queue between calls and a slow reader', () => {
  it('writes at once while the output keeps up', () => {
    const output = new Output();
    const writer = new CoalescingWriter(output);
    for (let step = 0; step < 5; step++) writer.progress('p', progress('p', step));
    writer.message('answer');
    expect(output.written).toEqual(['progress p 0', 'progress p 1', 'progress p 2', 'progress p 3', 'progress p 4', 'answer']);
    expect([writer.held, writer.lostOf('p')]).toEqual([0, 0]);
  });

  it('backed up: holds only the latest progress, then the answer, in that order; counts what it replaced', () => {
    const output = new Output();
    const told: boolean[] = [];
    const writer = new CoalescingWriter(output, (waiting) => told.push(waiting));
    output.backedUp = true;
    writer.progress('p', progress('p', 0));
    for (let step = 1; step <= 1000; step++) writer.progress('p', progress('p', step));
    writer.message('answer');
    expect(writer.held).toBe(2);
    expect(writer.lostOf('p')).toBe(999);
    let flushed = false;
    writer.whenFlushed(() => (flushed = true));
    expect(flushed).toBe(false);
    output.drain();
    expect(output.written).toEqual(['progress p 0', 'progress p 1000', 'answer']);
    expect([writer.held, flushed, told]).toEqual([0, true, [true, false]]);
  });

  it('never drops or reorders an answer; progress of two calls is held one each, 1 and "1" apart', () => {
    const output = new Output();
    const writer = new CoalescingWriter(output);
    output.backedUp = true;
    writer.message('reply 0');
    for (let step = 0; step < 50; step++) {
      writer.progress(1, progress('1', step));
      writer.progress('1', progress('"1"', step));
    }
    for (let answer = 1; answer <= 5; answer++) writer.message(`reply ${answer}`);
    expect(writer.held).toBe(7);
    expect([writer.lostOf(1), writer.lostOf('1')]).toEqual([49, 49]);
    output.drain();
    expect(output.written.slice(1)).toEqual(['progress 1 49', 'progress "1" 49', 'reply 1', 'reply 2', 'reply 3', 'reply 4', 'reply 5']);
  });

  it("an answer marked with what its stream lost, in the result's _meta; unmarked when nothing was lost", () => {
    const answer = { jsonrpc: '2.0', id: 7, result: { content: [], _meta: { kept: 1 } } };
    expect(markedWithLoss(answer, 0)).toBe(answer);
    expect(markedWithLoss(answer, 3)).toEqual({
      ...answer,
      result: { content: [], _meta: { kept: 1, [MCPRELY_META_KEYS.progressLost]: 3 } },
    });
    const error = { jsonrpc: '2.0', id: 7, error: { code: -1, message: 'no' } };
    expect(markedWithLoss(error, 3)).toBe(error);
  });
});

/**
 * A tool that reports STEPS steps of 1 MiB each, 100 ms apart (the server's own progress interval), then answers: 12 MiB,
 * past what the loopback's socket buffers take from a reader that does not read (about 4.5 MiB here).
 */
const STEPS = 12;
const PADDING = 1024 * 1024;
const floodTool: McpTool = {
  name: 'flood',
  title: 'flood',
  description: 'large progress',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object' },
  async run(_args, context) {
    const padding = 'x'.repeat(PADDING);
    for (let step = 1; step <= STEPS; step++) {
      context.progress(step, STEPS, `${step} ${padding}`);
      await new Promise((resolve) => setTimeout(resolve, 101));
    }
    return { ok: true, structured: { steps: STEPS }, text: `${STEPS} steps` };
  },
};

describe('mcprely mcp --listen and a client that does not read its stream', () => {
  it('holds the latest progress only, keeps its buffers bounded, and the answer arrives whole and last', { timeout: 20_000 }, async () => {
    const tools = mcprelyToolServer('test');
    const server = new McpHttpServer('.', 'test', { guard: requestGuard('127.0.0.1'), refused: () => undefined }, undefined, {
      ...tools,
      call: (id) => ({ kind: 'call', id, tool: floodTool, args: {}, token: 'flood' }),
    });
    const url = new URL(await server.listen({ host: '127.0.0.1', port: 0 }));
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 'slow',
      method: 'tools/call',
      params: { name: 'flood', _meta: { progressToken: 'flood' } },
    });
    const socket = connect(Number(url.port), '127.0.0.1');
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `MCP-Protocol-Version: 2025-11-25\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    // Not read: the socket is paused (no 'data' listener) until the tool is done.
    const most = { held: 0, buffered: 0 };
    const watching = setInterval(() => {
      const { held, buffered } = server.backlog;
      most.held = Math.max(most.held, held);
      most.buffered = Math.max(most.buffered, buffered);
    }, 20);
    await new Promise((resolve) => setTimeout(resolve, STEPS * 101 + 500));
    clearInterval(watching);
    const received: Buffer[] = [];
    // Read until the chunked response's last chunk (the connection itself is kept alive).
    await new Promise<void>((resolve) =>
      socket.on('data', (chunk: Buffer) => {
        received.push(chunk);
        if (chunk.toString('latin1').endsWith('\r\n0\r\n\r\n')) resolve();
      }),
    );
    socket.destroy();
    await server.close();
    const events = Buffer.concat(received)
      .toString('utf8')
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as Wire);
    const last = events.at(-1);
    const progressed = events.filter((event) => event.method === 'notifications/progress');
    const lost = last?.result?._meta?.[MCPRELY_META_KEYS.progressLost] as number;
    // What waited for a drain: at most the latest progress and the answer; the response's own buffer at most a frame or two.
    expect(most.held).toBeLessThanOrEqual(2);
    expect(most.buffered).toBeLessThanOrEqual(2 * (PADDING + 1024));
    // The reader was slow enough to lose progress, and the answer says how much; nothing else was lost.
    expect(lost).toBeGreaterThan(0);
    expect(progressed.length + lost).toBe(STEPS);
    expect(last).toMatchObject({ id: 'slow', result: { structuredContent: { steps: STEPS } } });
    expect(events.filter((event) => 'result' in event)).toHaveLength(1);
    // Progress that arrived is in order, the latest of all among it.
    console.log(`most held ${most.held}, most buffered ${most.buffered} bytes, progress lost ${lost} of ${STEPS}`);
    const steps = progressed.map((event) => event.params?.progress as number);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(steps.at(-1)).toBe(STEPS);
  });
});

describe('mcprely mcp over stdio and a client that does not read stdout', () => {
  it('stops reading requests, holds the latest progress only, and the answer arrives whole and last', { timeout: 30_000 }, async () => {
    // An output whose reader takes one line and then nothing until released: past 256 bytes each write says it is backed up.
    const received: string[] = [];
    let reading = false;
    let release: (() => void) | undefined;
    const output = new Writable({
      highWaterMark: 256,
      write(chunk: Buffer, _encoding, done) {
        received.push(chunk.toString('utf8'));
        if (reading) done();
        else release = done;
      },
    });
    const input = new PassThrough();
    const { ended } = serveMcpStdio(input, output, { workingFolder: workingFolder(2), version: 'test', errors: new PassThrough() });
    const send = (message: object) => input.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const call = { name: 'review_operation', arguments: { path: 'large.yaml' }, _meta: { progressToken: 'r' } };
    send({ jsonrpc: '2.0', id: 'review', method: 'tools/call', params: call });
    while (!input.isPaused()) await new Promise((resolve) => setTimeout(resolve, 20));
    // Backed up: the requests are no longer read, and what the output holds stays within its mark and a line.
    let most = 0;
    for (let waited = 0; waited < 800; waited += 20) {
      most = Math.max(most, output.writableLength);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(input.isPaused()).toBe(true);
    reading = true;
    release?.();
    while (!received.some((line) => line.includes('"id":"review"'))) await new Promise((resolve) => setTimeout(resolve, 20));
    // Read again: the session reads requests again.
    send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
    while (!received.some((line) => line.includes('"id":"after"'))) await new Promise((resolve) => setTimeout(resolve, 20));
    input.end();
    await ended;
    const messages = received
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Wire);
    const answer = messages.findIndex((message) => message.id === 'review');
    const progressed = messages.filter((message) => message.method === 'notifications/progress');
    console.log(
      `stdio: most buffered ${most} bytes, ${progressed.length} progress written, ${messages[answer]?.result?._meta?.[MCPRELY_META_KEYS.progressLost]} lost`,
    );
    expect(most).toBeLessThanOrEqual(256 + 1024);
    expect(messages[answer]?.result?._meta?.[MCPRELY_META_KEYS.progressLost]).toBeGreaterThan(0);
    expect(messages[answer]?.result?.structuredContent).toBeDefined();
    // The answer after every progress of its call, the ping's reply after it.
    expect(messages.slice(answer + 1).map((message) => message.id)).toEqual(['after']);
    const steps = progressed.map((message) => message.params?.progress as number);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
  });
});
