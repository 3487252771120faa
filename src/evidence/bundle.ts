import type { Fixture } from '../fixtures/fixture-types.js';

/** The bundle as relative path → file content; the caller writes it. Deterministic: the same manifest gives the same bytes. */
export type Bundle = Map<string, string>;

export const transcriptPath = (fixture: Fixture) => `transcripts/${fixture.id}.txt`;
export const fixturePath = (fixture: Fixture) => `fixtures/${fixture.id}.json`;

export function jsonFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
