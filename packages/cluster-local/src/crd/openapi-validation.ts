import { Ajv, type ErrorObject } from 'ajv';
import type { FieldError } from '../contracts.js';
import { KUBERNETES_KEYWORDS, toAjvSchema } from './ajv-schema.js';
import { invalid, notSupported, required, tooLong, tooMany, typeInvalid } from './field-errors.js';
import { childPath, pointerPath } from './field-path.js';
import { addKubernetesFormats } from './formats.js';
import type { Schema } from './schema.js';

/**
 * OpenAPI v3 validation of a custom resource, compiled once with ajv, its errors reported as the
 * API server reports them: Kubernetes' reasons, field paths and the OpenAPI validator's wording
 * (`spec.replicas in body should be greater than or equal to 1`).
 */
export type OpenApiValidator = (object: unknown) => FieldError[];

export function compileOpenApi(schema: Schema): OpenApiValidator {
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: true,
    // OpenAPI puts string checks (pattern) on int-or-string nodes and required lists next to
    // properties it leaves to other keywords; neither is a mistake there.
    strictTypes: false,
    strictRequired: false,
    allowUnionTypes: true,
  });
  ajv.addVocabulary([...KUBERNETES_KEYWORDS]);
  addKubernetesFormats(ajv);
  const validate = ajv.compile(toAjvSchema(schema));
  return (object) => (validate(object) ? [] : toFieldErrors(validate.errors ?? [], object));
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function toFieldErrors(errors: ErrorObject[], data: unknown): FieldError[] {
  // A failed anyOf or oneOf is one error: the failures of its branches say nothing more.
  const junctions = errors
    .filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf')
    .map((error) => `${error.schemaPath}/`);
  return errors
    .filter((error) => !junctions.some((prefix) => error.schemaPath.startsWith(prefix)))
    .map((error) => toFieldError(error, data));
}

function toFieldError(error: ErrorObject, data: unknown): FieldError {
  const path = pointerPath(error.instancePath, data);
  const value = error.data;
  const where = path === '' ? 'in body' : `${path} in body`;
  const params = error.params as Record<string, unknown>;
  const limit = String(params.limit);
  switch (error.keyword) {
    case 'required':
      return required(childPath(path, String(params.missingProperty)));
    case 'enum':
      return notSupported(path, value, (params.allowedValues as unknown[]) ?? []);
    case 'type': {
      const actual = jsonType(value);
      return typeInvalid(
        path,
        actual,
        `${where} must be of type ${String(params.type)}: "${actual}"`,
      );
    }
    case 'pattern':
      return invalid(path, value, `${where} should match '${String(params.pattern)}'`);
    case 'format':
      return invalid(
        path,
        value,
        `${where} must be of type ${String(params.format)}: ${JSON.stringify(value)}`,
      );
    case 'minimum':
      return invalid(path, value, `${where} should be greater than or equal to ${limit}`);
    case 'exclusiveMinimum':
      return invalid(path, value, `${where} should be greater than ${limit}`);
    case 'maximum':
      return invalid(path, value, `${where} should be less than or equal to ${limit}`);
    case 'exclusiveMaximum':
      return invalid(path, value, `${where} should be less than ${limit}`);
    case 'minLength':
      return invalid(path, value, `${where} should be at least ${limit} chars long`);
    case 'maxLength':
      return tooLong(path, Number(params.limit));
    case 'minItems':
      return invalid(path, value, `${where} should have at least ${limit} items`);
    case 'maxItems':
      return tooMany(path, Array.isArray(value) ? value.length : 0, Number(params.limit));
    case 'minProperties':
      return invalid(path, value, `${where} should have at least ${limit} properties`);
    case 'maxProperties': {
      const count = typeof value === 'object' && value !== null ? Object.keys(value).length : 0;
      return tooMany(path, count, Number(params.limit));
    }
    case 'multipleOf':
      return invalid(path, value, `${where} should be a multiple of ${String(params.multipleOf)}`);
    case 'uniqueItems':
      return invalid(path, value, `${where} shouldn't contain duplicates`);
    case 'anyOf':
      return invalid(path, value, `${where} must validate at least one schema (anyOf)`);
    case 'oneOf':
      return invalid(path, value, `${where} must validate one and only one schema (oneOf)`);
    case 'not':
      return invalid(path, value, `${where} must not validate the schema (not)`);
    case 'additionalProperties': {
      const field = childPath(path, String(params.additionalProperty));
      const extra = (value as Record<string, unknown>)[String(params.additionalProperty)];
      return invalid(field, extra, `${field} in body is a forbidden property`);
    }
    default:
      return invalid(path, value, `${where} ${error.message ?? `fails ${error.keyword}`}`);
  }
}
