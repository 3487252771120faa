import { createHash } from 'node:crypto';
import { html } from './escape.js';
import { SCROLL_BOX_CLASS } from './scroll-box.js';

/** One page, complete in itself: its style and its one small script inline, nothing fetched. */
export interface PageSpec {
  readonly title: string;
  /** The page's header content (already HTML). */
  readonly header: string;
  /** Links to the page's sections: fragment id and label. */
  readonly contents: readonly { readonly id: string; readonly label: string }[];
  /** The main content (already HTML). */
  readonly main: string;
  readonly footer: string;
}

/**
 * The HTML document around a report: opens from `file://` with no network (its Content-Security-Policy
 * allows nothing to be fetched, inline style and one script known by its hash), light and dark schemes from
 * the reader's setting, a skip link and a contents list for the keyboard, and every collapsed section opened
 * for printing.
 */
export function htmlPage(page: PageSpec): string {
  const contents = page.contents.map(contentsEntry).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="mcprely">
<title>${html(page.title)}</title>
<style>${STYLE}</style>
<script>${PRINT_SCRIPT}</script>
</head>
<body>
<a class="skip" href="#main">Skip to the verdict</a>
<header>
${page.header}
</header>
<nav aria-label="Contents">
<h2 class="contents-title">Contents</h2>
<ol>
${contents}
</ol>
</nav>
<main id="main" tabindex="-1">
${page.main}
</main>
<footer>
${page.footer}
</footer>
</body>
</html>
`;
}

/**
 * The same page with its contents list and main content in pieces, written as they come (a page of 10 000
 * operations is never held whole).
 */
export function* htmlPageChunks(
  page: Omit<PageSpec, 'main' | 'contents'> & {
    readonly contents: Iterable<PageSpec['contents'][number]>;
    readonly main: Iterable<string>;
  },
): Generator<string> {
  const contentsMarker = contentsEntry({ id: '\u0000contents\u0000', label: '' });
  const mainMarker = '\u0000main\u0000';
  const shell = htmlPage({ ...page, contents: [{ id: '\u0000contents\u0000', label: '' }], main: mainMarker });
  const contentsAt = shell.indexOf(contentsMarker);
  const mainAt = shell.indexOf(mainMarker);
  yield shell.slice(0, contentsAt);
  let first = true;
  for (const entry of page.contents) {
    yield `${first ? '' : '\n'}${contentsEntry(entry)}`;
    first = false;
  }
  yield shell.slice(contentsAt + contentsMarker.length, mainAt);
  yield* page.main;
  yield shell.slice(mainAt + mainMarker.length);
}

function contentsEntry(entry: PageSpec['contents'][number]): string {
  return `<li><a href="#${entry.id}">${html(entry.label)}</a></li>`;
}

/** Opens every collapsed section before printing and restores them after: a printed page shows every transcript. */
const PRINT_SCRIPT =
  "addEventListener('beforeprint',()=>{for(const d of document.querySelectorAll('details:not([open])')){d.dataset.printed='';d.open=true}});" +
  "addEventListener('afterprint',()=>{for(const d of document.querySelectorAll('details[data-printed]')){delete d.dataset.printed;d.open=false}});";

const SCRIPT_HASH = createHash('sha256').update(PRINT_SCRIPT).digest('base64');

/** Nothing may be fetched: inline style, the one script by its hash, data: images; no base, no form target. */
export const CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'; img-src data:; base-uri 'none'; form-action 'none'`;

const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--panel:#f6f8fa;--link:#0550ae;
--ok:#116329;--ok-bg:#dafbe1;--fail:#a40e26;--fail-bg:#ffebe9;--warn:#7d4e00;--warn-bg:#fff8c5;--note:#0550ae;--note-bg:#ddf4ff;
--seq-actor:#eef1f4;--seq-note:#fff8c5;--seq-line:#57606a}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--panel:#151b23;--link:#6cb6ff;
--ok:#56d364;--ok-bg:#12261e;--fail:#ff8182;--fail-bg:#2d1214;--warn:#e3b341;--warn-bg:#272115;--note:#6cb6ff;--note-bg:#121d2f;
--seq-actor:#212830;--seq-note:#3a2f13;--seq-line:#9198a1}}
*{box-sizing:border-box}
html{scrollbar-gutter:stable;overflow-wrap:break-word}
body{margin:0 auto;max-width:72rem;padding:1rem 1.5rem 3rem;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
@media (max-width:30rem){body{padding:.75rem .75rem 2rem}}
a{color:var(--link)}
a:focus-visible,summary:focus-visible,main:focus-visible,.${SCROLL_BOX_CLASS}:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem}
.skip:focus{left:1rem}
h1{font-size:1.6rem;margin:.5rem 0}
h2{font-size:1.3rem;margin:2rem 0 .5rem;padding-bottom:.25rem;border-bottom:1px solid var(--line)}
h3{font-size:1.05rem;margin:1.25rem 0 .4rem}
.meta{color:var(--muted);margin:0}
nav ol{columns:2 16rem;margin:.25rem 0 0;padding-left:1.5rem}
.contents-title{font-size:1rem;border:0;margin:1rem 0 0}
.${SCROLL_BOX_CLASS}{overflow-x:auto;margin:.5rem 0}
table{border-collapse:collapse;width:100%;font-size:.93rem}
th,td{border:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:var(--panel)}
.mark{display:inline-block;min-width:3.2rem;font-weight:600;font-size:.8rem;text-align:center;border-radius:.25rem;padding:0 .3rem}
.mark-ok,.mark-pass{color:var(--ok);background:var(--ok-bg)}
.mark-fail{color:var(--fail);background:var(--fail-bg)}
.mark-warn{color:var(--warn);background:var(--warn-bg)}
.mark-note,.mark-skip,.mark-not-run{color:var(--note);background:var(--note-bg)}
.verdict{border:2px solid var(--line);border-radius:.4rem;padding:.75rem 1rem;margin:1rem 0}
.verdict.ready{border-color:var(--ok);background:var(--ok-bg)}
.verdict.refused{border-color:var(--fail);background:var(--fail-bg)}
.verdict-text{font-size:1.2rem;font-weight:700;margin:.25rem 0}
ul.checks{list-style:none;padding-left:0;margin:.25rem 0}
ul.checks li{margin:.2rem 0}
.because{color:var(--muted)}
figure{margin:.75rem 0;padding:.5rem;border:1px solid var(--line);border-radius:.4rem}
figcaption{font-weight:600;margin-bottom:.25rem}
svg.seq{display:block;height:auto;font:12px system-ui,sans-serif}
.seq-actor{fill:var(--seq-actor);stroke:var(--seq-line)}
.seq-actor-name{fill:var(--fg);font-weight:600}
.seq-life{stroke:var(--seq-line);stroke-dasharray:3 3}
.seq-note{fill:var(--seq-note);stroke:var(--seq-line)}
.seq-label{fill:var(--fg)}
.seq-request,.seq-response{stroke:var(--fg);stroke-width:1.5}
.seq-response{stroke-dasharray:6 4}
.seq-request-head,.seq-response-head{fill:var(--fg)}
details{border:1px solid var(--line);border-radius:.4rem;margin:.4rem 0;padding:0 .6rem}
summary{cursor:pointer;padding:.35rem 0}
details[open]>summary{border-bottom:1px solid var(--line);margin-bottom:.4rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;
background:var(--panel);padding:.5rem;border-radius:.3rem;margin:.3rem 0 .6rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
footer{margin-top:3rem;color:var(--muted);font-size:.85rem}
@media print{body{max-width:none;font-size:11pt}nav,.skip{display:none}a{color:inherit}section.operation{break-before:page}
details{border:0;padding:0}figure,tr,pre{break-inside:avoid}svg.seq{max-width:100%}.verdict.ready,.verdict.refused{background:none}}
`
  .trim()
  .replace(/\n/g, '');
