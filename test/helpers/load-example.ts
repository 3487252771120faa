import { readFileSync } from 'node:fs';
import { loadManifest, type LoadedManifest } from '../../src/manifest/load.js';

/** A manifest file loaded as the CLI would, after `edit` changed its text; a manifest that does not load throws. */
export function loadExample(file: string, edit: (text: string) => string = (text) => text): LoadedManifest {
  const loaded = loadManifest(file, new TextEncoder().encode(edit(readFileSync(file, 'utf8'))));
  if (!loaded.ok) throw new Error(loaded.problems.map((problem) => problem.message).join('; '));
  return loaded;
}
