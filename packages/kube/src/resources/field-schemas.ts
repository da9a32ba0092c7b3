import { RESERVED_PREFIX } from '../labels.js';

/** Schema fragments several kinds share, each returned `as const` so the derived types stay exact. */

const ipv4 = String.raw`((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)`;
const hex = '[0-9a-fA-F]{1,4}';
// Every compressed form of RFC 4291; embedded IPv4 suffixes are not accepted in a CIDR here.
const ipv6 = [
  `(${hex}:){7}${hex}`,
  `(${hex}:){1,7}:`,
  `(${hex}:){1,6}:${hex}`,
  `(${hex}:){1,5}(:${hex}){1,2}`,
  `(${hex}:){1,4}(:${hex}){1,3}`,
  `(${hex}:){1,3}(:${hex}){1,4}`,
  `(${hex}:){1,2}(:${hex}){1,5}`,
  `${hex}:(:${hex}){1,6}`,
  `:((:${hex}){1,7}|:)`,
].join('|');

/** An IPv4 or IPv6 CIDR such as `10.0.0.0/8` or `fd00::/8`. Written for RE2 and ECMAScript alike. */
export const CIDR_PATTERN = String.raw`^((${ipv4})/(3[0-2]|[12]?\d)|(${ipv6})/(12[0-8]|1[01]\d|[1-9]?\d))$`;
/** US dollars with at most two decimals: `25`, `25.5`, `25.50`. */
export const USD_PATTERN = String.raw`^\d+(\.\d{1,2})?$`;
/** A duration such as `500ms`, `30s`, `1.5m` or `2h`. */
export const DURATION_PATTERN = String.raw`^\d+(\.\d+)?(ms|s|m|h)$`;
/** Kubernetes' resource.Quantity, as the API server's own schemas write it. */
export const QUANTITY_PATTERN = String.raw`^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$`;

/** Keys that users may set next to the controllers' own: anything outside the reserved prefix. */
export const UNRESERVED_KEYS_RULE = {
  rule: `self.all(k, !k.startsWith('${RESERVED_PREFIX}'))`,
  message: `keys must not use the reserved ${RESERVED_PREFIX} prefix`,
} as const;

export function stringMap(description: string) {
  return { type: 'object', description, additionalProperties: { type: 'string' } } as const;
}

/** A string map whose keys may not start with the reserved prefix (bounded so CEL's cost is too). */
export function unreservedStringMap(description: string) {
  return {
    type: 'object',
    description,
    maxProperties: 64,
    additionalProperties: { type: 'string' },
    'x-kubernetes-validations': [UNRESERVED_KEYS_RULE],
  } as const;
}

/** A CPU or memory amount: `500m`, `2`, `4Gi`. */
export function quantity(description: string) {
  return {
    description,
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    pattern: QUANTITY_PATTERN,
    'x-kubernetes-int-or-string': true,
  } as const;
}

export function count(description: string) {
  return { type: 'integer', description, minimum: 0 } as const;
}

export function usd(description: string) {
  return { type: 'string', description, pattern: USD_PATTERN } as const;
}

export function duration(description: string) {
  return { type: 'string', description, pattern: DURATION_PATTERN } as const;
}

export function port(description: string) {
  return { type: 'integer', description, minimum: 1, maximum: 65535 } as const;
}

export const observedGeneration = {
  type: 'integer',
  format: 'int64',
  minimum: 0,
  description: 'The metadata.generation the controller last acted on.',
} as const;
