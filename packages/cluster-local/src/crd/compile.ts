import type { CompiledSchema, FieldError, KubeObject } from '../contracts.js';
import { applyDefaults } from './defaults.js';
import { invalid } from './field-errors.js';
import { compileChecks, invariantErrors, ruleErrors } from './node-checks.js';
import { compileOpenApi } from './openapi-validation.js';
import { prune } from './prune.js';
import type { Schema } from './schema.js';

export { checkStructural } from './structural.js';

/**
 * One CustomResourceDefinition version's `openAPIV3Schema`, compiled once (ajv's validator, every CEL
 * rule parsed and planned) into what the API server does with each object it writes: default,
 * prune, validate. Call checkStructural first: Kubernetes refuses a CRD whose schema it reports.
 */
export function compileSchema(openAPIV3Schema: object): CompiledSchema {
  const schema = openAPIV3Schema as Schema;
  const openApi = compileOpenApi(schema);
  const checks = compileChecks(schema);
  return {
    applyDefaults: (object) => applyDefaults(object, schema),
    prune: (object) => prune(object, schema),
    validate: (object, old) => validate(object, old),
  };

  function validate(object: KubeObject, old: KubeObject | undefined): FieldError[] {
    const errors = openApi(object);
    if (checks === undefined) return errors;
    errors.push(...invariantErrors(checks, object, ''));
    if (!checks.hasRules) return errors;
    // As Kubernetes: rules are not run on values of the wrong type or outside their enum.
    if (errors.some(blocksRules)) {
      errors.push(
        invalid(
          '',
          null,
          'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
        ),
      );
      return errors;
    }
    errors.push(...ruleErrors(checks, object, old, '', new WeakMap(), true));
    return errors;
  }
}

function blocksRules(error: FieldError): boolean {
  return error.reason === 'FieldValueTypeInvalid' || error.reason === 'FieldValueNotSupported';
}
