import type { Decision, RbacSource, RequestAttributes, UserInfo } from '../contracts.js';
import { forbiddenStatusMessage } from './forbidden.js';
import { aggregateMessage, goQuote } from './go-format.js';
import { ruleAllows } from './policy-rule.js';
import { visitRulesFor } from './rule-resolver.js';

/** Kubernetes lets this group do anything before RBAC is asked (its loopback clients rely on it). */
export const PRIVILEGED_GROUP = 'system:masters';

export function isPrivileged(user: UserInfo): boolean {
  return user.groups.includes(PRIVILEGED_GROUP);
}

/**
 * Kubernetes' RBAC authorizer: allowed when any rule reachable through a binding whose subjects
 * include the user matches the request. A denial's reason is the text of the 403 after
 * `… is forbidden: `, with `RBAC: …` errors appended when a binding's role is missing.
 */
export function authorize(
  user: UserInfo,
  attributes: RequestAttributes,
  rbac: RbacSource,
): Decision {
  if (isPrivileged(user)) {
    return { allowed: true, reason: `allowed as a member of ${goQuote(PRIVILEGED_GROUP)}` };
  }
  let allowedBy: string | undefined;
  const errors: string[] = [];
  visitRulesFor(user, attributes.namespace ?? '', rbac, (visit) => {
    if ('error' in visit) {
      errors.push(visit.error);
      return true;
    }
    if (!ruleAllows(attributes, visit.rule)) return true;
    allowedBy = visit.source();
    return false;
  });
  if (allowedBy !== undefined) return { allowed: true, reason: `RBAC: allowed by ${allowedBy}` };
  const denial = describeDenial(user, attributes);
  const reason = errors.length > 0 ? `${denial}: RBAC: ${aggregateMessage(errors)}` : denial;
  return { allowed: false, reason };
}

/**
 * The message of the 403 Status for a denied request, exactly as Kubernetes words it, e.g.
 * `configmaps "x" is forbidden: User "…" cannot get resource "configmaps" in API group "" in the
 * namespace "ws-a"`. Pass the denying Decision to include its `RBAC: …` resolution errors too.
 */
export function forbiddenMessage(
  user: UserInfo,
  attributes: RequestAttributes,
  denial?: Decision,
): string {
  const reason = denial?.reason ?? describeDenial(user, attributes);
  if (attributes.nonResourcePath !== undefined) return forbiddenStatusMessage('', '', '', reason);
  return forbiddenStatusMessage(attributes.apiGroup, attributes.resource, attributes.name, reason);
}

/** `User "…" cannot <verb> resource "…" in API group "…" in the namespace "…"` (or the path form). */
export function describeDenial(user: UserInfo, attributes: RequestAttributes): string {
  const who = `User ${goQuote(user.username)} cannot ${attributes.verb}`;
  if (attributes.nonResourcePath !== undefined) {
    return sanitize(`${who} path ${goQuote(attributes.nonResourcePath)}`);
  }
  const resource = attributes.subresource
    ? `${attributes.resource}/${attributes.subresource}`
    : attributes.resource;
  const what = `${who} resource ${goQuote(resource)} in API group ${goQuote(attributes.apiGroup)}`;
  return sanitize(
    attributes.namespace
      ? `${what} in the namespace ${goQuote(attributes.namespace)}`
      : `${what} at the cluster scope`,
  );
}

/** Kubernetes escapes these so a name cannot inject markup into a browser showing the message. */
function sanitize(message: string): string {
  return message.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
