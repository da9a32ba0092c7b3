import { randomInt } from 'node:crypto';
import type { FieldError } from '../contracts.js';

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** Which of Kubernetes' name rules a kind follows. */
export type NameRule = 'subdomain' | 'label' | 'label1035' | 'pathSegment';

/** Kinds whose names follow a rule other than the usual DNS subdomain. */
export const NAME_RULES: Record<string, NameRule> = {
  namespaces: 'label',
  services: 'label1035',
  'roles.rbac.authorization.k8s.io': 'pathSegment',
  'rolebindings.rbac.authorization.k8s.io': 'pathSegment',
  'clusterroles.rbac.authorization.k8s.io': 'pathSegment',
  'clusterrolebindings.rbac.authorization.k8s.io': 'pathSegment',
};

/** The problems of a name, worded as Kubernetes' validation does. */
export function nameProblems(name: string, rule: NameRule, field = 'metadata.name'): FieldError[] {
  const invalid = (detail: string): FieldError[] => [
    {
      reason: 'FieldValueInvalid',
      field,
      message: `Invalid value: ${JSON.stringify(name)}: ${detail}`,
    },
  ];
  switch (rule) {
    case 'pathSegment':
      if (name === '.' || name === '..') return invalid(`may not be '${name}'`);
      if (/[/%]/.test(name)) return invalid(`may not contain '${name.includes('/') ? '/' : '%'}'`);
      return [];
    case 'label':
      if (name.length > 63) return invalid('must be no more than 63 characters');
      return LABEL.test(name)
        ? []
        : invalid(
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
          );
    case 'label1035':
      if (name.length > 63) return invalid('must be no more than 63 characters');
      return LABEL_1035.test(name)
        ? []
        : invalid(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
          );
    case 'subdomain':
      if (name.length > 253) return invalid('must be no more than 253 characters');
      return SUBDOMAIN.test(name)
        ? []
        : invalid(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
          );
  }
}

const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** generateName plus five random characters, from the alphabet Kubernetes uses. */
export function generateName(prefix: string): string {
  const base = prefix.length > 58 ? prefix.slice(0, 58) : prefix;
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return base + suffix;
}
