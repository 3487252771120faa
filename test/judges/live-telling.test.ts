import { describe, expect, it } from 'vitest';
import { LiveTelling } from '../../src/judges/live-telling.js';
import { type LiveFailure, LiveVerdict } from '../../src/proxy/live-verdict.js';
import { call, cancel, progress, request, result, transcript } from './session-builder.js';

describe('live telling: each piece of news told once, again only when what it says about its subject changed', () => {
  // Each row: the news of successive judging passes ([about, says]), and what is told after each pass.
  const rows: [string, [string, string][][], string[][]][] = [
    ['a pass with nothing tells nothing', [[]], [[]]],
    ['news is told once, however many passes find it', [[['a', 'fail 1']], [['a', 'fail 1']], [['a', 'fail 1']]], [['a'], [], []]],
    ['news about a subject told again when it says something new', [[['a', 'fail 1']], [['a', 'fail 2']]], [['a'], ['a']]],
    [
      'and again when it says what it first said (only the last told counts)',
      [[['a', 'x']], [['a', 'y']], [['a', 'x']]],
      [['a'], ['a'], ['a']],
    ],
    [
      'subjects are told apart',
      [
        [
          ['a', 'x'],
          ['b', 'x'],
        ],
        [
          ['b', 'x'],
          ['c', 'x'],
        ],
      ],
      [['a', 'b'], ['c']],
    ],
  ];
  for (const [name, passes, expected] of rows)
    it(name, () => {
      let pass = 0;
      let told: string[] = [];
      const telling = new LiveTelling<[string, string]>({
        judge: () => passes[pass] ?? [],
        key: ([about, says]) => ({ about, says }),
        tell: ([about]) => told.push(about),
        failed: (error) => {
          throw error;
        },
        intervalMs: 1000,
      });
      const seen = passes.map(() => {
        told = [];
        telling.check();
        pass++;
        return told;
      });
      expect(seen).toEqual(expected);
    });
});

describe("the proxy's live verdict: each failed case of the judges told once, as the session grows", () => {
  it('a response after a cancellation is told when it comes, and not again as the session goes on', () => {
    const messages: [number, 'client' | 'server', unknown][] = [
      [0, 'client', request(0, 'initialize', { protocolVersion: '2025-11-25' })],
      [5, 'server', result(0, { protocolVersion: '2025-11-25' })],
      [10, 'client', call(1, 'slow', {}, 7)],
      [100, 'server', progress(7, 1)],
      [200, 'client', cancel(1)],
    ];
    const told: LiveFailure[] = [];
    const verdict = new LiveVerdict(
      () => transcript(messages, { endedAt: 2000 }),
      { toleranceMs: 100, graceMs: 50 },
      (failure) => told.push(failure),
    );
    verdict.check();
    expect(told).toEqual([]);
    messages.push([900, 'server', result(1)]);
    verdict.check();
    expect(told.map(({ judge, line, lines }) => ({ judge, line, lines }))).toEqual([
      { judge: 'server-silent-after-cancel', line: 7, lines: [7, 6] },
    ]);
    messages.push([950, 'client', request(2, 'ping')]);
    verdict.check();
    expect(told).toHaveLength(1);
  });
});
