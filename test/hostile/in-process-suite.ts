import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE, hostileInputs } from './hostile-inputs.js';
import { everyStage, everyStageOf, SIZE_SERIES } from './in-process-stages.js';

const inputs = hostileInputs();

/**
 * Hostile inputs through every stage in process: every stage ends, within bounds, and prints nothing raw. `all` runs
 * every input and sixty random draws (npm run test:hostile); `sample` the first input of each class and ten draws (npm test).
 */
export function hostileInProcessSuite(share: 'all' | 'sample'): void {
  const firstOfEachKind = new Set([...new Map(inputs.map((input) => [input.kind, input] as const)).values()].map((input) => input.name));
  const chosen = inputs.filter((input) => !SIZE_SERIES.test(input.name) && (share === 'all' || firstOfEachKind.has(input.name)));
  const which = share === 'all' ? 'all of them' : 'one of each class';
  describe(`hostile inputs, in process (${which}): every stage ends, within bounds, and prints nothing raw`, () => {
    it('there are at least 300 of them, in every class', () => {
      expect(inputs.length).toBeGreaterThanOrEqual(300);
      expect(new Set(inputs.map((input) => input.kind)).size).toBe(8);
    });

    // The size series (100 to 3 000 operations, held to scaling) is in-process-sizes.test.ts, in npm run test:live.
    const sizeTimes = new Map<number, number>();
    it.each(chosen.map((input) => [`${input.kind}: ${input.name}`, input] as const))('%s', { timeout: 60_000 }, async (_name, input) =>
      everyStageOf(input, sizeTimes),
    );

    it('random numbers in many fields at once (fast-check): every stage ends, in bounded time', { timeout: 120_000 }, async () => {
      const fields: readonly [string, (value: string) => string][] = [
        ['capacity', (value) => `progressBuffer: { capacity: ${value},`],
        ['idle', (value) => `timeouts: { idleMs: ${value}, maxMs: 60000 }`],
        ['interval', (value) => `minIntervalMs: ${value},`],
        ['keepalive', (value) => `keepaliveMs: ${value}`],
        ['proxy', (value) => `proxyIdleTimeoutMs: ${value}`],
        ['replicas', (value) => `replicas: ${value}`],
      ];
      const originals = [
        'progressBuffer: { capacity: 64,',
        'timeouts: { idleMs: 5000, maxMs: 60000 }',
        'minIntervalMs: 250,',
        'keepaliveMs: 15000',
        'proxyIdleTimeoutMs: 60000',
        'replicas: 3',
      ];
      const number = fc.oneof(
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.constantFrom(2 ** 53 - 1, 2 ** 31, 1e7),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(number, { minLength: fields.length, maxLength: fields.length }), async (values) => {
          let text = BASE;
          for (const [index, [, write]] of fields.entries()) text = text.replace(originals[index]!, write(String(values[index])));
          const started = performance.now();
          await everyStage(new TextEncoder().encode(text));
          expect(performance.now() - started).toBeLessThan(20_000);
        }),
        { numRuns: share === 'all' ? 60 : 10 },
      );
    });
  });
}
