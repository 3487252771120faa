/** Where the lint cache lives unless --cache-location says otherwise (where ESLint keeps its own). */
export const DEFAULT_CACHE_LOCATION = 'node_modules/.cache/mcprely/lint-cache.json';
