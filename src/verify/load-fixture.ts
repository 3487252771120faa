import fixtureSchema from '../../schemas/fixture.schema.json' with { type: 'json' };
import { fixtureParameters } from '../fixtures/fixture-parameters.js';
import type { Fixture } from '../fixtures/fixture-types.js';
import { validateFixture } from '../generated/validate-fixture.js';
import { canonicalJson } from '../json/canonical-json.js';
import type { LoadedManifest } from '../manifest/load.js';
import { parseDocumentBytes } from '../document/parse-document.js';
import { makeProblem, type DocumentProblem } from '../document/problem.js';
import { schemaLookup, type SchemaNode } from '../document/schema-lookup.js';
import { locate, type PathSegment, type SourceNode } from '../document/source-map.js';
import { validateAgainst } from '../document/validate-against.js';

const fixtureLookup = schemaLookup(fixtureSchema as unknown as SchemaNode, 'the fixture');

export type FixtureLoad =
  | { readonly ok: true; readonly fixture: Fixture; readonly text: string; readonly source: SourceNode }
  | { readonly ok: false; readonly text: string; readonly problems: readonly DocumentProblem[] };

/** A fixture file (JSON or YAML) checked against schemas/fixture.schema.json, with places for every problem. Pure. */
export function loadFixture(file: string, bytes: Uint8Array): FixtureLoad {
  const parsed = parseDocumentBytes(file, bytes);
  if (!parsed.ok) return { ok: false, text: parsed.text, problems: parsed.problems };
  const problems = validateAgainst(validateFixture, fixtureLookup, parsed.document.value, parsed.document.source);
  if (problems.length > 0) return { ok: false, text: parsed.text, problems };
  return { ok: true, fixture: parsed.document.value as Fixture, text: parsed.text, source: parsed.document.source };
}

/** Where a fixture disagrees with the manifest it names: an unknown operation, another revision or transport, other parameters. */
export function contradictions(fixture: Fixture, source: SourceNode, manifest: LoadedManifest): DocumentProblem[] {
  const problem = (path: PathSegment[], template: string, data: Record<string, string>, fix: string): DocumentProblem => {
    const place = locate(source, path);
    return makeProblem('schema', { messageId: 'contradicts-manifest', template, data, fix, path, start: place.start, end: place.end });
  };
  const operation = manifest.operations.find((candidate) => candidate.spec.name === fixture.operation);
  if (operation === undefined) {
    const names = manifest.operations.map((candidate) => candidate.spec.name).join(', ');
    return [
      problem(
        ['operation'],
        'The fixture names the operation {operation}, which {manifest} does not have (it has {names})',
        { operation: fixture.operation, manifest: manifest.file, names },
        'regenerate the fixtures with mcprely fixtures, or fix the operation name',
      ),
    ];
  }
  const problems: DocumentProblem[] = [];
  if (fixture.specVersion !== manifest.manifest.specVersion)
    problems.push(
      problem(
        ['specVersion'],
        'The fixture is for {fixture} but the manifest speaks {manifest}',
        { fixture: fixture.specVersion, manifest: manifest.manifest.specVersion },
        'regenerate the fixtures with mcprely fixtures',
      ),
    );
  const transports = operation.spec.transports ?? manifest.manifest.server.transports;
  if (!transports.includes(fixture.transport))
    problems.push(
      problem(
        ['transport'],
        'The fixture runs on {transport}, which {operation} is not offered on ({offered})',
        { transport: fixture.transport, operation: fixture.operation, offered: transports.join(', ') },
        'regenerate the fixtures with mcprely fixtures',
      ),
    );
  const expected = fixtureParameters(manifest.manifest, operation) as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(fixture.parameters)) {
    if (canonicalJson(value) !== canonicalJson(expected[key])) {
      problems.push(
        problem(
          ['parameters', key],
          'parameters.{key} is {fixture} but the manifest gives {manifest}',
          { key, fixture: canonicalJson(value), manifest: canonicalJson(expected[key]) },
          'regenerate the fixtures with mcprely fixtures after changing the manifest',
        ),
      );
    }
  }
  return problems;
}
