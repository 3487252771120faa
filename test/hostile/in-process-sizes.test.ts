import { describe, expect, it } from 'vitest';
import { hostileInputs } from './hostile-inputs.js';
import { everyStageOf, SIZE_SERIES } from './in-process-stages.js';

/** How long each size input (N operations) took in this run, smallest first. */
const sizeTimes = new Map<number, number>();
const series = hostileInputs().filter((input) => SIZE_SERIES.test(input.name));

/** The size series of the hostile inputs, every stage in process, held to scaling: load, run by npm run test:live. */
describe('hostile inputs, in process: every stage ends, within bounds, and prints nothing raw', () => {
  it('the series has its sizes', () =>
    expect(series.map((input) => input.name)).toEqual(['100 operations', '1000 operations', '3000 operations']));

  it.each(series.map((input) => [`${input.kind}: ${input.name}`, input] as const))('%s', { timeout: 60_000 }, async (_name, input) =>
    everyStageOf(input, sizeTimes),
  );
});
