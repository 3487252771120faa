import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ProbeRecording } from '../../src/probe/probe-recording.js';

const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } };

describe("the probe's recording of its session", () => {
  it('keeps what the judges read of each message, with the check it is about', () => {
    const recording = new ProbeRecording('stdio', 'server');
    recording.message(
      'client',
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 't' } } },
      'progress',
    );
    recording.message('server', progress, 'progress');
    recording.message('server', { jsonrpc: '2.0', id: 9, result: {} }, undefined);
    const transcript = recording.end('done');
    expect(transcript.messages.map((one) => [one.line, one.from])).toEqual([
      [2, 'client'],
      [3, 'server'],
      [4, 'server'],
    ]);
    expect([recording.ownerOf(2), recording.ownerOf(3), recording.ownerOf(4)]).toEqual(['progress', 'progress', undefined]);
  });

  it('never parses what the probe did not take as a message: a JSON array line stays one string, judged by no judge', () => {
    const recording = new ProbeRecording('stdio', 'server');
    recording.text(JSON.stringify(Array.from({ length: 1000 }, () => progress)), undefined);
    expect(recording.end('done').messages).toEqual([]);
  });

  it.skipIf(!existsSync('/dev/full'))('a trace whose first record cannot be written is refused at once (the probe: a usage error)', () => {
    expect(() => new ProbeRecording('stdio', 'server', '/dev/full')).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
  });
});
