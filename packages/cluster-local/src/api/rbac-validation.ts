import type { FieldError, KubeObject } from '../contracts.js';
import { isRecord } from '../objects/object-meta.js';
import { goQuote } from '../rbac/go-format.js';
import { RBAC_GROUP } from '../rbac/rule-resolver.js';
import type { KindStrategy } from './kind-strategy.js';
import { nameProblems } from './names.js';

/**
 * The RBAC kinds as Kubernetes defaults and validates them (rbac/v1 defaulting, rbac validation).
 * Roles: every rule has verbs, and either API groups and resources or (ClusterRoles only)
 * non-resource URLs. Bindings: the roleRef names a Role or ClusterRole of rbac.authorization.k8s.io
 * and nothing else, and never changes once made; each subject is a User, Group or ServiceAccount
 * written correctly. A roleRef naming another API group is what let a `bind` permission on that
 * group's resources stand in for `bind` on cluster-admin.
 */

const SERVICE_ACCOUNT = 'ServiceAccount';
const SUBJECT_KINDS = [SERVICE_ACCOUNT, 'User', 'Group'];

/** How a binding kind differs: which role kinds it may name, whether its namespace fills gaps. */
interface BindingRules {
  roleKinds: readonly string[];
  namespaced: boolean;
}

const ROLE_BINDING: BindingRules = { roleKinds: ['Role', 'ClusterRole'], namespaced: true };
const CLUSTER_ROLE_BINDING: BindingRules = { roleKinds: ['ClusterRole'], namespaced: false };

/** rbac/v1 defaulting: an empty roleRef.apiGroup, and that of a User or Group subject, is RBAC's. */
function setDefaults(object: KubeObject): void {
  object['roleRef'] ??= {};
  const roleRef = object['roleRef'];
  if (isRecord(roleRef) && (roleRef['apiGroup'] === undefined || roleRef['apiGroup'] === '')) {
    roleRef['apiGroup'] = RBAC_GROUP;
  }
  const subjects = object['subjects'];
  if (!Array.isArray(subjects)) return;
  for (const subject of subjects) {
    if (!isRecord(subject) || (subject['apiGroup'] !== undefined && subject['apiGroup'] !== '')) {
      continue;
    }
    if (subject['kind'] === 'User' || subject['kind'] === 'Group') subject['apiGroup'] = RBAC_GROUP;
  }
}

/** A field's string value; a value of another type is reported and read as ''. */
function stringAt(
  record: Record<string, unknown>,
  key: string,
  path: string,
  problems: FieldError[],
): string {
  const value = record[key];
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  problems.push({
    reason: 'FieldValueTypeInvalid',
    field: `${path}.${key}`,
    message: `Invalid value: ${JSON.stringify(value)}: must be of type string`,
  });
  return '';
}

function notSupported(field: string, value: string, supported: readonly string[]): FieldError {
  return {
    reason: 'FieldValueNotSupported',
    field,
    message: `Unsupported value: ${goQuote(value)}: supported values: ${supported.map(goQuote).join(', ')}`,
  };
}

function required(field: string): FieldError {
  return { reason: 'FieldValueRequired', field, message: 'Required value' };
}

interface RoleRefFields {
  apiGroup: string;
  kind: string;
  name: string;
}

function roleRefFields(object: KubeObject, problems: FieldError[]): RoleRefFields {
  const roleRef = object['roleRef'];
  if (roleRef !== undefined && !isRecord(roleRef)) {
    problems.push({
      reason: 'FieldValueTypeInvalid',
      field: 'roleRef',
      message: `Invalid value: ${JSON.stringify(roleRef)}: must be of type object`,
    });
  }
  const record = isRecord(roleRef) ? roleRef : {};
  return {
    apiGroup: stringAt(record, 'apiGroup', 'roleRef', problems),
    kind: stringAt(record, 'kind', 'roleRef', problems),
    name: stringAt(record, 'name', 'roleRef', problems),
  };
}

function roleRefProblems(ref: RoleRefFields, rules: BindingRules): FieldError[] {
  const problems: FieldError[] = [];
  if (ref.apiGroup !== RBAC_GROUP) {
    problems.push(notSupported('roleRef.apiGroup', ref.apiGroup, [RBAC_GROUP]));
  }
  if (!rules.roleKinds.includes(ref.kind)) {
    problems.push(notSupported('roleRef.kind', ref.kind, rules.roleKinds));
  }
  if (ref.name === '') problems.push(required('roleRef.name'));
  else problems.push(...nameProblems(ref.name, 'pathSegment', 'roleRef.name'));
  return problems;
}

function subjectProblems(object: KubeObject, rules: BindingRules): FieldError[] {
  const subjects = object['subjects'];
  if (subjects === undefined || subjects === null) return [];
  if (!Array.isArray(subjects)) {
    return [
      {
        reason: 'FieldValueTypeInvalid',
        field: 'subjects',
        message: `Invalid value: ${JSON.stringify(subjects)}: must be of type array`,
      },
    ];
  }
  const problems: FieldError[] = [];
  subjects.forEach((subject: unknown, i) => {
    const path = `subjects[${i}]`;
    if (!isRecord(subject)) {
      problems.push({
        reason: 'FieldValueTypeInvalid',
        field: path,
        message: `Invalid value: ${JSON.stringify(subject)}: must be of type object`,
      });
      return;
    }
    const kind = stringAt(subject, 'kind', path, problems);
    const name = stringAt(subject, 'name', path, problems);
    const apiGroup = stringAt(subject, 'apiGroup', path, problems);
    const namespace = stringAt(subject, 'namespace', path, problems);
    if (name === '') problems.push(required(`${path}.name`));
    switch (kind) {
      case SERVICE_ACCOUNT:
        if (name !== '') problems.push(...nameProblems(name, 'subdomain', `${path}.name`));
        if (apiGroup !== '') problems.push(notSupported(`${path}.apiGroup`, apiGroup, ['']));
        if (!rules.namespaced && namespace === '') problems.push(required(`${path}.namespace`));
        break;
      case 'User':
      case 'Group':
        if (name === '') {
          problems.push({
            reason: 'FieldValueInvalid',
            field: `${path}.name`,
            message: `Invalid value: "": ${kind.toLowerCase()} name cannot be empty`,
          });
        }
        if (apiGroup !== RBAC_GROUP) {
          problems.push(notSupported(`${path}.apiGroup`, apiGroup, [RBAC_GROUP]));
        }
        break;
      default:
        problems.push(notSupported(`${path}.kind`, kind, SUBJECT_KINDS));
    }
  });
  return problems;
}

/** Go's `%#v` of an rbac.RoleRef, as the immutability error prints it. */
function goRoleRef(ref: RoleRefFields): string {
  return `rbac.RoleRef{APIGroup:${goQuote(ref.apiGroup)}, Kind:${goQuote(ref.kind)}, Name:${goQuote(ref.name)}}`;
}

function bindingStrategy(rules: BindingRules): KindStrategy {
  return {
    prepareForCreate: setDefaults,
    prepareForUpdate: setDefaults,
    validate(object, old) {
      const problems: FieldError[] = [];
      const ref = roleRefFields(object, problems);
      problems.push(...roleRefProblems(ref, rules), ...subjectProblems(object, rules));
      if (old) {
        // Compared as stored objects are read: one written before defaulting has an empty group.
        const before = roleRefFields(old, []);
        if (before.apiGroup === '') before.apiGroup = RBAC_GROUP;
        if (
          before.apiGroup !== ref.apiGroup ||
          before.kind !== ref.kind ||
          before.name !== ref.name
        ) {
          problems.push({
            reason: 'FieldValueInvalid',
            field: 'roleRef',
            message: `Invalid value: ${goRoleRef(ref)}: cannot change roleRef`,
          });
        }
      }
      return problems;
    },
  };
}

/** A rule list's strings; a value of another type is reported and left out. */
function stringListAt(
  record: Record<string, unknown>,
  key: string,
  path: string,
  problems: FieldError[],
): string[] {
  const value = record[key];
  if (value === undefined || value === null) return [];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  problems.push({
    reason: 'FieldValueTypeInvalid',
    field: `${path}.${key}`,
    message: `Invalid value: ${JSON.stringify(value)}: must be of type array of strings`,
  });
  return [];
}

/** Go's `%#v` of a string slice. */
function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

/** Kubernetes' ValidatePolicyRule for each of a role's rules. */
function ruleProblems(object: KubeObject, namespaced: boolean): FieldError[] {
  const rules = object['rules'];
  if (rules === undefined || rules === null) return [];
  if (!Array.isArray(rules)) {
    return [
      {
        reason: 'FieldValueTypeInvalid',
        field: 'rules',
        message: `Invalid value: ${JSON.stringify(rules)}: must be of type array`,
      },
    ];
  }
  const problems: FieldError[] = [];
  rules.forEach((rule: unknown, i) => {
    const path = `rules[${i}]`;
    if (!isRecord(rule)) {
      problems.push({
        reason: 'FieldValueTypeInvalid',
        field: path,
        message: `Invalid value: ${JSON.stringify(rule)}: must be of type object`,
      });
      return;
    }
    const [verbs, apiGroups, resources, resourceNames, urls] = [
      'verbs',
      'apiGroups',
      'resources',
      'resourceNames',
      'nonResourceURLs',
    ].map((key) => stringListAt(rule, key, path, problems)) as [
      string[],
      string[],
      string[],
      string[],
      string[],
    ];
    if (verbs.length === 0) {
      problems.push({
        reason: 'FieldValueRequired',
        field: `${path}.verbs`,
        message: 'Required value: verbs must contain at least one value',
      });
    }
    if (urls.length > 0) {
      const invalid = (detail: string) =>
        problems.push({
          reason: 'FieldValueInvalid',
          field: `${path}.nonResourceURLs`,
          message: `Invalid value: ${goStringSlice(urls)}: ${detail}`,
        });
      if (namespaced) invalid('namespaced rules cannot apply to non-resource URLs');
      if (apiGroups.length > 0 || resources.length > 0 || resourceNames.length > 0) {
        invalid('rules cannot apply to both regular resources and non-resource URLs');
      }
      return;
    }
    if (apiGroups.length === 0) {
      problems.push({
        reason: 'FieldValueRequired',
        field: `${path}.apiGroups`,
        message: 'Required value: resource rules must supply at least one api group',
      });
    }
    if (resources.length === 0) {
      problems.push({
        reason: 'FieldValueRequired',
        field: `${path}.resources`,
        message: 'Required value: resource rules must supply at least one resource',
      });
    }
  });
  return problems;
}

function aggregationProblems(object: KubeObject): FieldError[] {
  const rule = object['aggregationRule'];
  if (rule === undefined || rule === null) return [];
  const selectors = isRecord(rule) ? rule['clusterRoleSelectors'] : undefined;
  if (Array.isArray(selectors) && selectors.length > 0) return [];
  return [
    {
      reason: 'FieldValueRequired',
      field: 'aggregationRule.clusterRoleSelectors',
      message:
        'Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    },
  ];
}

const roleStrategy: KindStrategy = {
  validate: (object) => ruleProblems(object, true),
};

const clusterRoleStrategy: KindStrategy = {
  validate: (object) => [...ruleProblems(object, false), ...aggregationProblems(object)],
};

/** The strategies of the four RBAC kinds, by storage. */
export const rbacStrategies: Record<string, KindStrategy> = {
  [`roles.${RBAC_GROUP}`]: roleStrategy,
  [`clusterroles.${RBAC_GROUP}`]: clusterRoleStrategy,
  [`rolebindings.${RBAC_GROUP}`]: bindingStrategy(ROLE_BINDING),
  [`clusterrolebindings.${RBAC_GROUP}`]: bindingStrategy(CLUSTER_ROLE_BINDING),
};
