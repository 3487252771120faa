/** The few JSON Schema shapes the tools' output schemas are made of. */

export const STRING = { type: 'string' } as const;
export const BOOLEAN = { type: 'boolean' } as const;
export const COUNT = { type: 'integer', minimum: 0 } as const;
export const STRINGS = { type: 'array', items: STRING } as const;

/** An object with these properties, every one required unless `required` names fewer. */
export function objectSchema(
  properties: Readonly<Record<string, unknown>>,
  required: readonly string[] = Object.keys(properties),
): Readonly<Record<string, unknown>> {
  return { type: 'object', properties, required: [...required] };
}

export function arrayOf(items: unknown): Readonly<Record<string, unknown>> {
  return { type: 'array', items };
}
