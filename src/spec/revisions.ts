/**
 * The MCP specification revisions mcprely knows. This folder is the only place in the source that names a
 * revision: everything that differs between them is a fact in revision-facts.ts.
 */
export const SPEC_VERSIONS = ['2025-11-25', '2026-07-28'] as const;
export type SpecVersion = (typeof SPEC_VERSIONS)[number];

/** The revision most servers still speak (SDK 1.x); what the probe assumes when nothing says otherwise. */
export const MOST_DEPLOYED_REVISION: SpecVersion = '2025-11-25';

export function isSpecVersion(value: unknown): value is SpecVersion {
  return (SPEC_VERSIONS as readonly unknown[]).includes(value);
}
