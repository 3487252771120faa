import { describe, expect, it } from 'vitest';
import { generateFixtures } from '../../src/fixtures/generate-fixtures.js';
import { loadManifest } from '../../src/manifest/load.js';
import { loadFixture } from '../../src/verify/load-fixture.js';
import { BASE } from './hostile-inputs.js';

const encode = (text: string) => new TextEncoder().encode(text);
const manifest = loadManifest('billing.yaml', encode(BASE));
if (!manifest.ok) throw new Error('the example does not load');
const [generated] = generateFixtures(manifest);
const SAFE =
  /which is not a safe name: parts of letters, digits, "_", "\.", ":" and "-", joined by single "\/", none of them "\." or "\.\."$/;

describe('fixture ids and operation names are safe names: no "..", "." or empty part, refused at the place', () => {
  const bad = ['../../escaped/kind', '../kind', 'a/../b', 'a/./b', './a', '/abs', 'a//b', 'a/..', '..'];

  it.each(bad)('a fixture whose id is %s', (id) => {
    const text = JSON.stringify({ ...generated, id }, null, 2);
    const loaded = loadFixture('fixture.json', encode(text));
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    const [problem, ...rest] = loaded.problems;
    expect(rest).toEqual([]);
    expect(problem?.message).toMatch(
      new RegExp(`^id is ${JSON.stringify(id).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, ${SAFE.source.slice(0)}`),
    );
    expect(problem?.start).toBe(text.indexOf(JSON.stringify(id)));
  });

  it.each(bad)('an operation named %s', (name) => {
    const loaded = loadManifest('m.yaml', encode(BASE.replace('name: charge_account', `name: "${name}"`)));
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.problems.map((problem) => problem.message)).toEqual([expect.stringMatching(SAFE)]);
  });

  it.each(['charge_account/one-key', 'a.b/c-d', '.hidden/x', 'a..b/trailing.', 'ns:tool/kind'])('takes %s', (id) => {
    const loaded = loadFixture('fixture.json', encode(JSON.stringify({ ...generated, id })));
    expect(loaded.ok ? [] : loaded.problems.map((problem) => problem.message)).toEqual([]);
  });

  it('every generated fixture id is a safe name', () => {
    for (const fixture of generateFixtures(manifest)) {
      const loaded = loadFixture('f.json', encode(JSON.stringify(fixture)));
      expect(loaded.ok ? [] : loaded.problems.map((problem) => problem.message), fixture.id).toEqual([]);
    }
  });
});
