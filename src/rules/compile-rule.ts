import { formatMessage } from '../document/message-template.js';
import type { FixChange, Severity } from '../findings/finding.js';
import { fact, isFactId, type FactId } from '../spec/revision-facts.js';
import { SPEC_VERSIONS, type SpecVersion } from '../spec/revisions.js';
import type { CompiledRule } from './compiled-rule.js';
import { canHoldOn, compileConditions, type CompiledCondition } from './conditions.js';
import { GENERIC_FUNCTIONS } from './functions/index.js';
import { describeValue, type CompiledCheck, type Failure } from './functions/generic-function.js';
import type { RuleFunction } from './rule-functions/rule-function.js';
import type { Assertion, CheckDefinition, RuleDefinition } from './rule-types.js';
import { compileField, type FieldAccessor, type RuleTarget } from './target.js';
import type { Violation } from './violation.js';

interface CompiledAssertion {
  readonly field: FieldAccessor;
  /** Where the finding points: the asserted field, or the one the rule names as the value to change. */
  readonly reported: FieldAccessor;
  readonly at: 'key' | 'value';
  readonly check: CompiledCheck;
  readonly message: string | undefined;
  readonly autofix: FixChange | undefined;
  readonly suggestion: FixChange | undefined;
}

interface CompiledCheckGroup {
  readonly messageId: string;
  readonly basis: FactId | undefined;
  readonly when: CompiledCondition;
  readonly assertions: readonly CompiledAssertion[];
  readonly message: string;
  readonly fix: string;
  readonly autofix: FixChange | undefined;
  readonly suggestion: FixChange | undefined;
  readonly severity: Severity | undefined;
}

/** Compiles a validated rule definition once; running it is then field reads and closures. */
export function compileRule(definition: RuleDefinition, ruleFunctions: Readonly<Record<string, RuleFunction>>): CompiledRule {
  for (const citation of definition.spec)
    if ('fact' in citation && !isFactId(citation.fact)) throw new Error(`rule ${definition.id}: no revision fact named ${citation.fact}`);
  const revisions = SPEC_VERSIONS.filter(
    (revision) =>
      canHoldOn(definition.when, revision) &&
      (definition.checks === undefined || definition.checks.some((check) => canHoldOn(check.when, revision))),
  );
  const applies = new Set<SpecVersion>(revisions);
  const ruleWhen = compileConditions(definition.when);
  const appliesTo = (specVersion: SpecVersion) => applies.has(specVersion);

  if (definition.function !== undefined) {
    const implementation = ruleFunctions[definition.function];
    if (implementation === undefined)
      throw new Error(`rule ${definition.id}: no rule function named ${definition.function} in src/rules/rule-functions/`);
    return {
      definition,
      revisions,
      appliesTo,
      run: (target, severity) =>
        ruleWhen(target)
          ? implementation(target, { definition, severity, messageData: (extra) => messageData(target, undefined, extra) })
          : [],
    };
  }

  const checks = (definition.checks ?? [{ then: definition.then! } satisfies CheckDefinition]).map((check, index) =>
    compileCheck(definition, check, index),
  );
  return {
    definition,
    revisions,
    appliesTo,
    run(target, configured) {
      if (!ruleWhen(target)) return [];
      const violations: Violation[] = [];
      for (const check of checks) {
        if (!check.when(target)) continue;
        // A check's own severity holds unless the configuration changed the rule's severity.
        const severity = configured === definition.severity ? (check.severity ?? configured) : configured;
        for (const assertion of check.assertions) {
          const value = assertion.field.read(target);
          const failure = assertion.check(value, target);
          if (failure === undefined) continue;
          const data = messageData(target, check.basis, failureData(assertion.field.text, value, failure));
          violations.push({
            messageId: check.messageId,
            message: formatMessage(assertion.message ?? check.message, data),
            fix: check.fix,
            autofix: assertion.autofix ?? check.autofix,
            suggestion: assertion.suggestion ?? check.suggestion,
            severity,
            place: assertion.reported.place(target),
            at: assertion.at,
            data,
          });
        }
      }
      return violations;
    },
  };
}

function compileCheck(definition: RuleDefinition, check: CheckDefinition, index: number): CompiledCheckGroup {
  if (check.basis !== undefined && !isFactId(check.basis)) throw new Error(`rule ${definition.id}: no revision fact named ${check.basis}`);
  const assertions = (Array.isArray(check.then) ? check.then : [check.then as Assertion]).map(compileAssertion);
  return {
    messageId: check.id ?? (definition.checks === undefined ? 'default' : `check-${index + 1}`),
    basis: check.basis,
    when: compileConditions(check.when),
    assertions,
    message: check.message ?? definition.message,
    fix: check.fix ?? definition.fix,
    autofix: check.autofix ?? definition.autofix,
    suggestion: check.suggestion ?? definition.suggestion,
    severity: check.severity,
  };
}

function compileAssertion(assertion: Assertion): CompiledAssertion {
  const generic = GENERIC_FUNCTIONS[assertion.function];
  if (generic === undefined) throw new Error(`unknown function ${assertion.function}`);
  const field = compileField(assertion.field);
  return {
    field,
    reported: assertion.report === undefined ? field : compileField(assertion.report),
    at: assertion.at ?? 'value',
    check: generic.compile(assertion.functionOptions ?? {}),
    message: assertion.message,
    autofix: assertion.autofix,
    suggestion: assertion.suggestion,
  };
}

function failureData(field: string, value: unknown, failure: Failure): Record<string, string> {
  return {
    field,
    value: describeValue(value),
    expected: failure.expected ?? '',
    other: failure.other === undefined ? '' : describeValue(failure.other),
  };
}

/** The placeholders every message may use, the revision fact a check enforces, plus the rule's own. */
function messageData(
  target: RuleTarget,
  basis: FactId | undefined,
  extra: Readonly<Record<string, string | number>>,
): Record<string, string | number> {
  const manifest = target.manifest.manifest;
  const enforced = basis === undefined ? undefined : fact(manifest.specVersion, basis);
  const data: Record<string, string | number> = {
    operation: target.operation?.own.name ?? manifest.server.name,
    specVersion: manifest.specVersion,
    transports: (target.operation?.own.transports ?? manifest.server.transports).join(', '),
    replicas: manifest.server.replicas ?? 1,
  };
  if (enforced !== undefined) {
    data['requirement'] = enforced.says;
    data['strength'] = enforced.strength;
  }
  return Object.assign(data, extra);
}
