import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CallInbox } from '../../src/probe/call-inbox.js';
import type { Received } from '../../src/probe/received.js';

const progress = (value: number, at = 0): Received => ({
  at,
  message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: value } },
});
const response = (at = 0): Received => ({ at, message: { jsonrpc: '2.0', id: 1, result: { ok: true } } });

describe('the probe keeps its own flow-control rules: a bounded inbox that never drops a final response', () => {
  it('for any mix of progress and responses, the read queue stays within its capacity and the first response is kept', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 32 }),
        fc.array(fc.oneof(fc.constant('progress' as const), fc.constant('response' as const)), { maxLength: 300 }),
        async (capacity, kinds) => {
          const inbox = new CallInbox(capacity);
          for (const [index, kind] of kinds.entries()) inbox.push(kind === 'progress' ? progress(index, index) : response(index));
          const progressPushed = kinds.filter((kind) => kind === 'progress').length;
          const responses = kinds.filter((kind) => kind === 'response').length;
          // Every progress value was counted as it arrived, even those coalesced out of the queue.
          expect(inbox.progressCount).toBe(progressPushed);
          expect(inbox.repeatedResponses).toBe(Math.max(0, responses - 1));
          if (responses > 0) {
            expect(inbox.response?.at).toBe(kinds.indexOf('response'));
            expect((await inbox.waitForResponse(0))?.at).toBe(kinds.indexOf('response'));
          }
          let queued = 0;
          while ((await inbox.next(() => true, 0)) !== undefined) queued++;
          expect(queued).toBeLessThanOrEqual(Math.max(capacity, responses > 0 ? 1 : 0));
          expect(queued + inbox.coalesced).toBe(progressPushed + Math.min(responses, 1));
        },
      ),
    );
  });

  it('6 000 progress notifications and then the response: the response is there to read, the values were all checked', async () => {
    const inbox = new CallInbox(256);
    for (let value = 1; value <= 6000; value++) inbox.push(progress(value, value));
    inbox.push(response(6001));
    expect((await inbox.next((message) => message['result'] !== undefined, 0))?.at).toBe(6001);
    expect(inbox.progressCount).toBe(6000);
    expect(inbox.notIncreasing).toEqual([]);
    expect(inbox.coalesced).toBe(6000 - 255);
  });

  it('progress that does not increase is named as it arrives', () => {
    const inbox = new CallInbox();
    for (const value of [1, 3, 2, 2]) inbox.push(progress(value));
    expect(inbox.notIncreasing).toEqual([
      { value: '2', previous: '3' },
      { value: '2', previous: '2' },
    ]);
  });
});

describe('the in-flight allowance after a cancellation', () => {
  it('what arrives within the allowance crossed the cancellation; what arrives after it breaks the silence', () => {
    const inbox = new CallInbox();
    inbox.push(progress(1, 90));
    inbox.cancelledAt = 100;
    inbox.silentFrom = 350;
    inbox.push(progress(2, 100));
    inbox.push(progress(3, 349));
    inbox.push(progress(4, 350));
    inbox.push(response(400));
    expect(inbox.crossedCancellation).toBe(2);
    expect(inbox.afterSilenceCount).toBe(2);
    expect(inbox.afterSilence.map((received) => received.at)).toEqual([350, 400]);
  });

  it('what arrives after the silence is counted without bound but kept only as a few samples', () => {
    const inbox = new CallInbox();
    inbox.cancelledAt = 0;
    inbox.silentFrom = 0;
    for (let value = 1; value <= 1000; value++) inbox.push(progress(value, value));
    expect(inbox.afterSilenceCount).toBe(1000);
    expect(inbox.afterSilence.length).toBeLessThanOrEqual(8);
  });
});

describe('exact JSON-RPC ids in the inbox', () => {
  it('a response with a mistyped id wakes the waiter without being taken as the answer', async () => {
    const inbox = new CallInbox();
    const waiting = inbox.waitForResponse(5000);
    inbox.mistyped({ at: 1, message: { jsonrpc: '2.0', id: '1', result: {} } }, 1);
    expect(await waiting).toBeUndefined();
    expect(inbox.response).toBeUndefined();
    expect(inbox.why).toBe(
      'the server sent a response with the id "1" (a string) to request 1 (an integer): ids must match in type and value',
    );
  });
});

describe('the fence after a cancellation: what came before the ping answer crossed it, whenever it is read', () => {
  const answer = (at: number): Received => ({
    at,
    message: { jsonrpc: '2.0', id: 1, error: { code: -32800, message: 'Request cancelled' } },
  });

  it('a backlog read long after the allowance, but before the fence answers, crossed the cancellation', () => {
    const inbox = new CallInbox(256);
    inbox.cancel(100, 200);
    inbox.awaitFence();
    for (let value = 1; value <= 400; value++) inbox.push(progress(value, 900 + value));
    inbox.fencePassed();
    expect(inbox.afterSilenceCount).toBe(0);
    expect(inbox.crossedCancellation).toBe(400);
    // After the fence, the time rule holds again: late progress breaks the silence.
    inbox.push(progress(401, 1500));
    expect(inbox.afterSilenceCount).toBe(1);
  });

  it('without the fence (the mutation: time alone) the same backlog breaks the silence', () => {
    const inbox = new CallInbox(256);
    inbox.cancel(100, 200);
    for (let value = 1; value <= 400; value++) inbox.push(progress(value, 900 + value));
    expect(inbox.afterSilenceCount).toBe(400);
  });

  it('a fence that never answers excuses nothing: read, the waiting messages are judged by time', () => {
    const inbox = new CallInbox(256);
    inbox.cancel(100, 200);
    inbox.awaitFence();
    inbox.push(progress(1, 150));
    inbox.push(progress(2, 900));
    expect(inbox.afterSilenceCount).toBe(1);
    expect(inbox.crossedCancellation).toBe(1);
    // An answer that comes after the silence was read changes nothing.
    inbox.fencePassed();
    expect(inbox.afterSilenceCount).toBe(1);
  });

  it('an answer to the cancellation is never excused, fence or not', () => {
    const inbox = new CallInbox(256);
    inbox.cancel(100, 200);
    inbox.awaitFence();
    inbox.push(answer(120));
    inbox.fencePassed();
    expect(inbox.afterSilenceCount).toBe(1);
  });
});
