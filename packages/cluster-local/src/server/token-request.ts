import { errors } from '../api/api-error.js';
import type { RequestContext } from '../api/request-context.js';
import type { Resources } from '../api/resources.js';
import type { KubeObject, TokenAuthority } from '../contracts.js';
import { isRecord, metaOf } from '../objects/object-meta.js';
import type { ResourceType } from '../registry/resource-type.js';

const MIN_SECONDS = 600;
const MAX_SECONDS = 2 ** 32;
const DEFAULT_SECONDS = 3600;
const TOKEN_REQUEST = { group: 'authentication.k8s.io', kind: 'TokenRequest' };

/** POST serviceaccounts/<name>/token: a signed, expiring token for the ServiceAccount. */
export async function tokenRequest(
  resources: Resources,
  tokens: TokenAuthority,
  type: ResourceType,
  namespace: string,
  name: string,
  body: unknown,
  context: RequestContext,
): Promise<KubeObject> {
  const account = resources.get(type, namespace, name);
  const spec = isRecord(body) && isRecord(body['spec']) ? body['spec'] : {};
  const seconds = spec['expirationSeconds'] ?? DEFAULT_SECONDS;
  if (typeof seconds !== 'number' || !Number.isInteger(seconds)) {
    throw errors.badRequest('spec.expirationSeconds must be an integer');
  }
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) {
    throw errors.invalid(TOKEN_REQUEST, name, [
      {
        reason: 'FieldValueInvalid',
        field: 'spec.expirationSeconds',
        message: `Invalid value: ${seconds}: ${seconds < MIN_SECONDS ? 'may not specify a duration less than 10 minutes' : 'may not specify a duration larger than 2^32 seconds'}`,
      },
    ]);
  }
  const audiences = Array.isArray(spec['audiences'])
    ? spec['audiences'].filter((a): a is string => typeof a === 'string')
    : [];
  const issued = await tokens.issue({
    namespace,
    serviceAccountName: name,
    serviceAccountUid: metaOf(account).uid!,
    ...(audiences.length > 0 ? { audiences } : {}),
    expirationSeconds: seconds,
    now: context.now,
  });
  return {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { name, namespace, creationTimestamp: null },
    spec: {
      audiences,
      expirationSeconds: seconds,
      boundObjectRef: spec['boundObjectRef'] ?? null,
    },
    status: issued,
  };
}
