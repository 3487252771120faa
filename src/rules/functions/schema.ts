import { createRequire } from 'node:module';
import { ruleOptionValidators } from '../../generated/rule-option-validators.js';
import { canonicalJson } from '../../json/canonical-json.js';
import type { CompiledValidator } from '../../document/validator-types.js';
import type { GenericFunction } from './generic-function.js';

/**
 * The field validates against a JSON Schema. The bundled rules' schemas are precompiled at build time
 * (scripts/compile-schemas.mjs) so no schema compiler loads at run time; a schema only a user's rule file
 * holds is compiled when that rule is loaded (ajv, loaded then and only then).
 */
export const schema: GenericFunction = {
  name: 'schema',
  compile(options) {
    const json = options['schema'] as object;
    const allowMissing = options['allowMissing'] === true;
    const key = canonicalJson(json);
    const validate: CompiledValidator = ruleOptionValidators[key] ?? compiledAtRunTime(key, json);
    return (value) => {
      if (value === undefined) return allowMissing ? undefined : { expected: 'a value' };
      return validate(value) ? undefined : { expected: `a value matching ${JSON.stringify(json)}` };
    };
  },
};

type SchemaCompiler = { compile(schema: object): CompiledValidator };
let compiler: SchemaCompiler | undefined;
const compiled = new Map<string, CompiledValidator>();

function compiledAtRunTime(key: string, json: object): CompiledValidator {
  const known = compiled.get(key);
  if (known !== undefined) return known;
  if (compiler === undefined) {
    const Ajv2020 = (createRequire(import.meta.url)('ajv/dist/2020') as { default: new (options: object) => SchemaCompiler }).default;
    compiler = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  }
  let validate: CompiledValidator;
  try {
    validate = compiler.compile(json);
  } catch (error) {
    throw new Error(
      `functionOptions.schema is not a JSON Schema ajv can compile: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  compiled.set(key, validate);
  return validate;
}
