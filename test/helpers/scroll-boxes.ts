/** Elements HTML writes without a closing tag. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** The opening tag of a scroll box as src/html/scroll-box.ts writes it: a named group the keyboard reaches. */
const SCROLL_BOX = /^<div class="scroll-box" role="group" tabindex="0" aria-label="[^"]+">$/;

/**
 * Every <table> and diagram <svg class="seq"> of a page mcprely wrote, and those whose parent is not a scroll box
 * (each named by its tag and its parent's). Reads the page's tags in order, keeping the open ones: mcprely's pages
 * escape every `<` of text, and their style and script hold none. Throws on a closing tag that does not match.
 */
export function wideElements(page: string): { readonly checked: number; readonly unboxed: readonly string[] } {
  const open: string[] = [];
  const unboxed: string[] = [];
  let checked = 0;
  for (const [tag, closing, name, rest] of page.matchAll(/<(\/?)([a-zA-Z][\w-]*)([^>]*)>/g)) {
    if (closing === '/') {
      const opened = open.pop();
      if (opened === undefined || !new RegExp(`^<${name}[\\s>]`).test(opened)) throw new Error(`${tag} closes ${opened ?? 'nothing'}`);
      continue;
    }
    if (name === 'table' || (name === 'svg' && /\bclass="seq"/.test(rest!))) {
      checked++;
      const parent = open.at(-1) ?? 'the document';
      if (!SCROLL_BOX.test(parent)) unboxed.push(`${tag.slice(0, 40)} in ${parent.slice(0, 80)}`);
    }
    if (!VOID.has(name!.toLowerCase()) && !rest!.endsWith('/')) open.push(tag);
  }
  if (open.length > 0) throw new Error(`never closed: ${open.join(' ')}`);
  return { checked, unboxed };
}
