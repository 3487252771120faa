import { ruleOptionValidators } from '../../generated/validators.js';
import { canonicalJson } from '../../json/canonical-json.js';
import type { CompiledValidator } from '../../document/validator-types.js';
import type { GenericFunction } from './generic-function.js';

/**
 * The field validates against a JSON Schema. Rule schemas are precompiled at build time
 * (scripts/compile-schemas.mjs) so no schema compiler loads at run time.
 */
export const schema: GenericFunction = {
  name: 'schema',
  compile(options) {
    const json = options['schema'] as object;
    const allowMissing = options['allowMissing'] === true;
    const validate: CompiledValidator | undefined = ruleOptionValidators[canonicalJson(json)];
    if (validate === undefined)
      throw new Error(`the rule schema ${JSON.stringify(json)} was not precompiled; rebuild with node scripts/build.mjs`);
    return (value) => {
      if (value === undefined) return allowMissing ? undefined : { expected: 'a value' };
      return validate(value) ? undefined : { expected: `a value matching ${JSON.stringify(json)}` };
    };
  },
};
