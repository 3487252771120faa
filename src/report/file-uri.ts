import { pathToFileURL } from 'node:url';
import { relativeUri } from '../text/relative-uri.js';

/**
 * A reported file as SARIF locates it: a relative path (forward slashes, each name percent-encoded) against
 * `%SRCROOT%`, the folder the run started in; a file given by an absolute path, or outside that folder, as
 * a file: URI of its own.
 */
export function artifactUri(file: string): { uri: string; uriBaseId?: '%SRCROOT%' } {
  const slashed = file.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  if (/^([a-zA-Z]:)?\//.test(slashed) || slashed === '..' || slashed.startsWith('../')) return { uri: pathToFileURL(file).href };
  return { uri: relativeUri(slashed), uriBaseId: '%SRCROOT%' };
}

/** A folder as a file: URI ending in a slash, as SARIF's `originalUriBaseIds` wants it. */
export function directoryUri(folder: string): string {
  const href = pathToFileURL(folder).href;
  return href.endsWith('/') ? href : `${href}/`;
}
