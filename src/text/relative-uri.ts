/** A relative path as a URI reference: forward slashes, each name percent-encoded (a bundle file's link, a SARIF artifact). */
export function relativeUri(file: string): string {
  return file
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .split('/')
    .map(encodeURIComponent)
    .join('/');
}
