/** A reported file as a relative URI with forward slashes, as SARIF artifact locations and links want it. */
export function relativeUri(file: string): string {
  const slashed = file.replace(/\\/g, '/').replace(/^\.\//, '');
  return slashed.split('/').map(encodeURIComponent).join('/');
}
