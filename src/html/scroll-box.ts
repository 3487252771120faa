import { html } from './escape.js';

/**
 * A wide element (a table, a sequence diagram) in a box of its own that scrolls sideways, so a narrow screen
 * scrolls the box and never the page. The box is a tab stop with a name (a region that scrolls must be
 * reachable by keyboard to be scrolled by it); a group, not a region, so a page of many tables does not fill
 * the reader's list of landmarks.
 */
export function scrollBox(label: string, content: string): string {
  return `${scrollBoxStart(label)}\n${content}\n${SCROLL_BOX_END}`;
}

/** The opening of a scroll box, for content written in pieces; SCROLL_BOX_END closes it. */
export function scrollBoxStart(label: string): string {
  return `<div class="${SCROLL_BOX_CLASS}" role="group" tabindex="0" aria-label="${html(label)}">`;
}

export const SCROLL_BOX_END = '</div>';

/** The class the page's style gives the box (overflow-x: auto). */
export const SCROLL_BOX_CLASS = 'scroll-box';
