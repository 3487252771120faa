import { afterAll, describe, it } from 'vitest';
import { CASES, probeCase } from './hostile-cases.js';
import { stopServers } from './probe-harness.js';

afterAll(stopServers);

describe.concurrent('probe: hostile servers of known behaviour, over stdio and Streamable HTTP, both revisions', () => {
  it.each(Object.entries(CASES))('%s', { timeout: 90_000 }, async (_name, test) => probeCase(test));
});
