/** A template split once into its literal text and its placeholder names (odd places): `a {x} b` → ['a ', 'x', ' b']. */
const compiled = new Map<string, readonly string[]>();

/** Fills `{name}` placeholders from data; an unknown placeholder stays visible rather than vanishing. */
export function formatMessage(template: string, data: Readonly<Record<string, string | number>>): string {
  let parts = compiled.get(template);
  if (parts === undefined) {
    parts = template.split(/\{(\w+)\}/);
    if (compiled.size >= 4096) compiled.clear(); // templates come from rules and code: few, but never unbounded
    compiled.set(template, parts);
  }
  let text = parts[0]!;
  for (let index = 1; index < parts.length; index += 2) {
    const name = parts[index]!;
    text += `${Object.hasOwn(data, name) ? String(data[name]) : `{${name}}`}${parts[index + 1]!}`;
  }
  return text;
}
