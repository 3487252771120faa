import type { SpecVersion } from './revisions.js';

/** The public page of a revision's specification, or the page itself when it is already a full URL. */
export function specPageUrl(revision: SpecVersion, page: string): string {
  return /^https?:\/\//.test(page) ? page : `https://modelcontextprotocol.io/specification/${revision}/${page}`;
}

/** A document outside the specification that rules cite by section, in words. */
export interface Source {
  readonly title: string;
  readonly by: string;
  readonly url: string;
}

/** The reliability lesson mcprely's reviewer checklist, reference implementation and fixtures come from. */
export const LESSON: Source = {
  title: 'MCP Reliability, Cancellation, and Flow Control',
  by: 'AI Engineering from Scratch, phase 13, lesson 29',
  url: 'https://github.com/rohitg00/ai-engineering-from-scratch',
};

/** The article on progress, cancellation and timeouts under 2026-07-28, with the host limits it reports. */
export const ARTICLE: Source = {
  title: 'Progress, cancellation and timeouts when nothing can resume',
  by: 'Amir Pournasserian, October 2026 (part 16 of a series on the 2026-07-28 specification)',
  url: 'https://pournasserian.com/writing',
};
