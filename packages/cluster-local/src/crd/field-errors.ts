import type { FieldError } from '../contracts.js';

/**
 * FieldErrors as Kubernetes' field package builds them: the reason, and the message its ErrorBody
 * writes (`Required value`, `Invalid value: "x": detail`, ...), which is what a StatusCause carries.
 */

/** A value as Kubernetes quotes it in a message: strings quoted, numbers and booleans bare. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '"null"';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return JSON.stringify(value);
}

function withDetail(head: string, detail: string): string {
  return detail === '' ? head : `${head}: ${detail}`;
}

export function required(field: string, detail = ''): FieldError {
  return { reason: 'FieldValueRequired', field, message: withDetail('Required value', detail) };
}

export function forbidden(field: string, detail = ''): FieldError {
  return { reason: 'FieldValueForbidden', field, message: withDetail('Forbidden', detail) };
}

export function invalid(field: string, value: unknown, detail: string): FieldError {
  return {
    reason: 'FieldValueInvalid',
    field,
    message: withDetail(`Invalid value: ${valueText(value)}`, detail),
  };
}

export function typeInvalid(field: string, value: unknown, detail: string): FieldError {
  return {
    reason: 'FieldValueTypeInvalid',
    field,
    message: withDetail(`Invalid value: ${valueText(value)}`, detail),
  };
}

export function notSupported(field: string, value: unknown, supported: unknown[]): FieldError {
  const values = supported.map((each) => JSON.stringify(each)).join(', ');
  return {
    reason: 'FieldValueNotSupported',
    field,
    message: `Unsupported value: ${valueText(value)}: supported values: ${values}`,
  };
}

export function duplicate(field: string, value: unknown): FieldError {
  return { reason: 'FieldValueDuplicate', field, message: `Duplicate value: ${valueText(value)}` };
}

export function tooLong(field: string, maxLength: number): FieldError {
  return {
    reason: 'FieldValueTooLong',
    field,
    message: `Too long: may not be longer than ${maxLength}`,
  };
}

export function tooMany(field: string, actual: number, max: number): FieldError {
  return {
    reason: 'FieldValueTooMany',
    field,
    message: `Too many: ${actual}: must have at most ${max} items`,
  };
}
