/** The shape of an error from a precompiled ajv validator (see scripts/compile-schemas.mjs). */
export interface SchemaError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string;
}

export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}
