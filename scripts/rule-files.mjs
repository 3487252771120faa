// Reads and checks rules/*.yaml: each parses, matches schemas/rule.schema.json, and has id = file name.
// Used at build time (the bundle in src/generated/rules.js) and by the rule option schema compiler.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { load } from 'js-yaml';

const root = fileURLToPath(new URL('..', import.meta.url));

export function readRuleFiles() {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
  const validate = ajv.compile(JSON.parse(readFileSync(join(root, 'schemas/rule.schema.json'), 'utf8')));
  const dir = join(root, 'rules');
  const rules = [];
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .sort()) {
    const rule = load(readFileSync(join(dir, file), 'utf8'));
    const problems = [];
    if (!validate(rule))
      problems.push(...validate.errors.map((error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`));
    if (rule?.id !== basename(file, '.yaml')) problems.push(`id ${JSON.stringify(rule?.id)} is not the file name`);
    if (problems.length > 0) throw new Error(`rules/${file}:\n  ${problems.join('\n  ')}`);
    rules.push(rule);
  }
  return rules;
}

/** Every functionOptions.schema of a `schema` assertion in the rules. */
export function ruleOptionSchemas(rules) {
  const schemas = [];
  const visit = (node) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') {
      if (node.function === 'schema' && node.functionOptions?.schema) schemas.push(node.functionOptions.schema);
      Object.values(node).forEach(visit);
    }
  };
  visit(rules.map((rule) => ({ then: rule.then, checks: rule.checks })));
  return schemas;
}
