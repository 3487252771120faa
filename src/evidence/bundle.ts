import type { Fixture } from '../fixtures/fixture-types.js';
import { pathSegment } from '../text/path-segment.js';

/** The bundle as relative path → file content; the caller writes it. Deterministic: the same manifest gives the same bytes. */
export type Bundle = Map<string, string>;

/**
 * Where a fixture's files go under a folder: <operation>/<kind>, each name encoded as one path segment, so
 * an operation named `../../x` or `a/b` stays inside the folder and never meets another's files.
 */
export function fixtureSegments(fixture: Fixture): [string, string] {
  const prefix = `${fixture.operation}/`;
  const rest = fixture.id.startsWith(prefix) ? fixture.id.slice(prefix.length) : fixture.id;
  return [pathSegment(fixture.operation), pathSegment(rest)];
}

export const transcriptPath = (fixture: Fixture) => `transcripts/${fixtureSegments(fixture).join('/')}.txt`;
export const fixturePath = (fixture: Fixture) => `fixtures/${fixtureSegments(fixture).join('/')}.json`;

export function jsonFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
