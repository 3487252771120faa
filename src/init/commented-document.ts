import { Document, isMap, isScalar, type Node, type YAMLMap } from 'yaml';

/**
 * A manifest being written with the `yaml` package's document API: values as data, comments on the nodes
 * they explain, small collections on one line, and strings quoted where another YAML reader would misread
 * them. init (from a server, or --template) writes through this, so comments are part of the document, not
 * lines glued around it.
 */
export class CommentedDocument {
  private readonly doc: Document;

  constructor(value: unknown, header: readonly string[]) {
    this.doc = new Document(value);
    this.doc.commentBefore = header.map((line) => ` ${line}`).join('\n');
  }

  /** A comment after the value at `path` (on its line), or `before` its key (on the line above). */
  comment(path: readonly (string | number)[], text: string, before = false): void {
    if (before) {
      const pair = pairAt(this.doc.contents as YAMLMap, path);
      const target = pair === undefined ? (this.doc.getIn(path, true) as Node | undefined) : (pair.key as Node);
      if (target !== undefined) target.commentBefore = ` ${text}`;
      return;
    }
    const node = this.doc.getIn(path, true) as Node | undefined;
    if (node !== undefined && (isScalar(node) || isMap(node) || 'items' in node)) node.comment = ` ${text}`;
  }

  /** Writes the collection at `path` on one line. */
  flow(path: readonly (string | number)[]): void {
    const node = this.doc.getIn(path, true) as { flow?: boolean } | undefined;
    if (node !== undefined && typeof node === 'object') node.flow = true;
  }

  /** Writes the string at `path` in double quotes. */
  quote(path: readonly (string | number)[]): void {
    const node = this.doc.getIn(path, true);
    if (isScalar(node)) node.type = 'QUOTE_DOUBLE';
  }

  toString(): string {
    return this.doc.toString({ lineWidth: 0, flowCollectionPadding: true });
  }
}

function pairAt(root: YAMLMap, path: readonly (string | number)[]): { key: unknown; value: unknown } | undefined {
  let node: unknown = root;
  let pair: { key: unknown; value: unknown } | undefined;
  for (const segment of path) {
    if (typeof segment === 'number') {
      node = (node as { items?: unknown[] } | undefined)?.items?.[segment];
      pair = undefined;
      continue;
    }
    if (!isMap(node)) return undefined;
    pair = node.items.find((item) => isScalar(item.key) && item.key.value === segment) as { key: unknown; value: unknown } | undefined;
    node = pair?.value;
  }
  return pair;
}
