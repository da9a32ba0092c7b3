import { createHash, timingSafeEqual } from 'node:crypto';
import type { UserInfo } from '../contracts.js';

/**
 * Whether a bearer token is the configured admin token. Both sides are hashed first so the
 * comparison takes the same time whatever the token's length or content; an empty expected token
 * matches nothing.
 */
export function adminTokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined || expected === '') return false;
  return timingSafeEqual(digest(given), digest(expected));
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Who the admin token authenticates as: in `system:masters`, so RBAC never stands in its way. */
export function adminUser(): UserInfo {
  return { username: 'admin', groups: ['system:masters', 'system:authenticated'] };
}
