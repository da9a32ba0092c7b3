import type { KubeObject, RbacSource } from '../contracts.js';
import { jsonEqual, metaOf } from '../objects/object-meta.js';
import { forbiddenMessage } from '../rbac/authorize.js';
import { mayBind, mayCreateRole } from '../rbac/escalation.js';
import { policyRulesOf, roleRefOf } from '../rbac/policy-rule.js';
import { RBAC_GROUP } from '../rbac/rule-resolver.js';
import { errors } from './api-error.js';
import type { AdmissionCheck } from './resources.js';

const ROLES = ['roles', 'clusterroles'];
const BINDINGS = ['rolebindings', 'clusterrolebindings'];

/** What an update must not change for the escalation check to be skipped. */
function grants(object: KubeObject): unknown[] {
  return [object['rules'], object['aggregationRule'], object['roleRef'], object['subjects']];
}

/**
 * RBAC's escalation prevention on Role, ClusterRole and their bindings: a user may only grant what
 * they hold, unless allowed to `escalate` or `bind`.
 */
export function rbacEscalation(rbac: RbacSource): AdmissionCheck {
  return ({ type, object, old, context }) => {
    if (type.group !== RBAC_GROUP) return;
    if (old && jsonEqual(grants(object), grants(old))) return;
    const meta = metaOf(object);
    const namespace = type.namespaced ? meta.namespace : undefined;
    const name = meta.name ?? '';
    const refuse = (reason: string) =>
      errors.forbidden(
        forbiddenMessage(
          context.user,
          { verb: old ? 'update' : 'create', apiGroup: RBAC_GROUP, resource: type.plural, name },
          { allowed: false, reason },
        ),
        type,
        name,
      );
    if (ROLES.includes(type.plural)) {
      const decision = mayCreateRole(context.user, namespace, policyRulesOf(object), rbac, {
        ...(old ? { name } : {}),
        aggregationRule:
          object['aggregationRule'] !== undefined || old?.['aggregationRule'] !== undefined,
      });
      if (!decision.allowed) throw refuse(decision.reason);
    } else if (BINDINGS.includes(type.plural)) {
      const roleRef = roleRefOf(object);
      if (!roleRef) {
        throw errors.invalid(type, name, [
          { reason: 'FieldValueRequired', field: 'roleRef', message: 'Required value' },
        ]);
      }
      const decision = mayBind(context.user, namespace, roleRef, rbac);
      if (decision.roleNotFound) {
        throw errors.notFoundBecause(
          decision.reason,
          { group: RBAC_GROUP, plural: roleRef.kind === 'Role' ? 'roles' : 'clusterroles' },
          roleRef.name,
        );
      }
      if (!decision.allowed) throw refuse(decision.reason);
    }
  };
}
