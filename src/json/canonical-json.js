// Canonical JSON: object keys sorted, no spaces. Plain JavaScript so that the build scripts and the
// TypeScript code share one implementation (rule-schema keys at build time, ledger fingerprints at run time).

/** @param {unknown} value @returns {string} */
export function canonicalJson(value) {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} is not representable in JSON`);
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
      throw new TypeError(`canonicalJson: a ${typeof value} is not representable in JSON`);
    }
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(/** @type {Record<string, unknown>} */ (value)[key])}`).join(',')}}`;
}
