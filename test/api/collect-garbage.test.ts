import { describe, expect, it } from 'vitest';
import { collectGarbage, collectGarbageNow } from '../../src/api/collect-garbage.js';

/** An object only a WeakRef points to (made in its own frame, so no local of the test holds it). */
function unheld(): WeakRef<object> {
  return new WeakRef({ payload: new Array(100_000).fill('x') });
}

describe('collectGarbage', () => {
  it('frees what nothing holds any more, and keeps what is held', async () => {
    const held = { payload: new Array(1000).fill('y') };
    const heldRef = new WeakRef(held);
    const unheldRef = unheld();
    // A WeakRef's target lives at least until the job that made it ends.
    await new Promise((resolve) => setImmediate(resolve));
    expect(unheldRef.deref()).toBeDefined();
    await collectGarbage();
    expect(unheldRef.deref()).toBeUndefined();
    expect(heldRef.deref()).toBe(held);
    // Called again (the gc function is kept): still collects.
    const again = unheld();
    await new Promise((resolve) => setImmediate(resolve));
    await collectGarbage();
    expect(again.deref()).toBeUndefined();
  });

  it('collects at once when called in the frame (collectGarbageNow)', async () => {
    const unheldRef = unheld();
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbageNow();
    expect(unheldRef.deref()).toBeUndefined();
  });
});
