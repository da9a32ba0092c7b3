import type { Ajv } from 'ajv';
import formats from 'ajv-formats';

/**
 * The string formats Kubernetes checks in custom resources (its strfmt registry). Any other format is
 * an annotation only, as in Kubernetes, so it is left out of what ajv compiles.
 */

// Go's time.ParseDuration syntax (`1h30m`, `500ms`), which Kubernetes' duration format uses; not
// ISO 8601 as ajv-formats' duration is.
const GO_DURATION = /^[-+]?(0|((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+)$/;
const IPV4_CIDR =
  /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\/(3[0-2]|[12]?\d)$/;
const MAC = /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/;
const uuidVersion = (version: number) =>
  new RegExp(
    `^[0-9a-f]{8}-?[0-9a-f]{4}-?${version}[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`,
    'i',
  );

/** ajv-formats' check of one format, whichever of its shapes (RegExp, function, definition) it has. */
function ajvFormat(name: 'ipv6' | 'iso-date-time'): (text: string) => boolean {
  const format = formats.default.get(name, 'full');
  if (format instanceof RegExp) return (text) => format.test(text);
  if (typeof format === 'function') return (text) => format(text) === true;
  if (typeof format === 'object' && 'validate' in format) {
    const check = format.validate;
    if (check instanceof RegExp) return (text) => check.test(text);
    if (typeof check === 'function') return (text) => check(text as never) === true;
  }
  return () => true;
}

const isIpv6 = ajvFormat('ipv6');
// Kubernetes' date-time also accepts a missing time zone, as ajv-formats' iso-date-time does.
const isDateTime = ajvFormat('iso-date-time');

function isCidr(text: string): boolean {
  if (IPV4_CIDR.test(text)) return true;
  const slash = text.lastIndexOf('/');
  if (slash < 0) return false;
  const prefix = text.slice(slash + 1);
  return /^(12[0-8]|1[01]\d|[1-9]?\d)$/.test(prefix) && isIpv6(text.slice(0, slash));
}

const OWN_FORMATS: Record<string, RegExp | ((text: string) => boolean)> = {
  datetime: isDateTime,
  duration: GO_DURATION,
  // Kubernetes accepts whatever Go's url.Parse does, which is nearly any text without control characters.
  uri: (text) => ![...text].some((char) => char < ' ' || char === '\u007f'),
  cidr: isCidr,
  mac: MAC,
  uuid3: uuidVersion(3),
  uuid4: uuidVersion(4),
  uuid5: uuidVersion(5),
  bsonobjectid: /^[0-9a-fA-F]{24}$/,
  hexcolor: /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/,
};

const FROM_AJV_FORMATS = [
  'date',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
] as const;

/** The formats a compiled schema checks. */
export const CHECKED_FORMATS: ReadonlySet<string> = new Set([
  ...FROM_AJV_FORMATS,
  ...Object.keys(OWN_FORMATS),
  'date-time',
]);

export function addKubernetesFormats(ajv: Ajv): void {
  formats.default(ajv, { mode: 'full', formats: [...FROM_AJV_FORMATS], keywords: false });
  for (const [name, check] of Object.entries(OWN_FORMATS)) ajv.addFormat(name, check);
  ajv.addFormat('date-time', isDateTime);
}
