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
type SchemaCompilerClass = new (options: object) => SchemaCompiler;
let compiler: SchemaCompiler | undefined;
const compiled = new Map<string, CompiledValidator>();

function newCompiler(Ajv2020: SchemaCompilerClass): SchemaCompiler {
  return new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
}

/**
 * Loads the compiler for the schemas of user rule files (ajv's 2020 draft), bundled into mcprely and loaded only
 * when a configuration names rule folders: the release tree the action runs has no ajv in node_modules.
 */
export async function loadSchemaCompiler(): Promise<void> {
  // ajv's module is CommonJS: its module.exports (Node's default) and its `default` (a bundler's) are the same class.
  compiler ??= newCompiler(((await import('ajv/dist/2020.js')) as unknown as { default: SchemaCompilerClass }).default);
}

function compiledAtRunTime(key: string, json: object): CompiledValidator {
  const known = compiled.get(key);
  if (known !== undefined) return known;
  // The bundled rules' schemas are all precompiled; a rule file's are compiled by the compiler the rule engine
  // loads with it (load-settings' ruleEngine), before any rule file is read.
  if (compiler === undefined) throw new Error('the schema compiler is not loaded: await loadSchemaCompiler() before compiling rule files');
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
