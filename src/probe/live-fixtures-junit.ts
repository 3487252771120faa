import { escapeXml } from '../report/junit-writer.js';
import { type LiveFixtureResult, renderLiveFixture } from './live-fixtures.js';
import { STATUS_WORDS } from './probe-types.js';

/** JUnit of a manifest's fixtures judged live: a case per fixture, its transcript as output; a failure only for a failed fixture. */
export function liveFixturesJunit(
  manifest: string,
  results: readonly LiveFixtureResult[],
  summary: { fixtures: number; failed: number; inconclusive: number; notObservable: number },
): string {
  const cases = results.map((result) => {
    const name = escapeXml(`${result.id} [${result.transport}, live]`);
    const body =
      result.status === 'fail'
        ? `\n      <failure type="live" message="${escapeXml(result.summary)}">${escapeXml(result.summary)}</failure>`
        : result.status !== 'pass'
          ? `\n      <skipped message="${escapeXml(`${STATUS_WORDS[result.status]}: ${result.summary}`)}"/>`
          : '';
    const output = `<system-out>${escapeXml(renderLiveFixture(result))}</system-out>`;
    return `    <testcase classname="${escapeXml(manifest)}" name="${name}">${body}\n      ${output}\n    </testcase>`;
  });
  const counts = `tests="${summary.fixtures}" failures="${summary.failed}" errors="0" skipped="${summary.inconclusive + summary.notObservable}"`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mcprely verify (live)" ${counts}>\n` +
    `  <testsuite name="${escapeXml(manifest)}" ${counts}>\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`
  );
}
