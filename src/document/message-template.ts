/** Fills `{name}` placeholders from data; an unknown placeholder stays visible rather than vanishing. */
export function formatMessage(template: string, data: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in data ? String(data[name]) : whole));
}
