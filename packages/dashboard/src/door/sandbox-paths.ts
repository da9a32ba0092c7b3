import type { WorkspaceAction } from '../workspaces/views.js';

/**
 * Which of a sandbox's human API routes the door opens, and the workspace action each needs:
 * reading for viewers, a way in (terminal, tunnel, SSH) for editors. A path not listed is not
 * proxied at all, so a route the sandbox gains later stays closed until someone decides its role;
 * the sandbox's HTML docs page stays closed on purpose (its scripts would run on the dashboard's
 * origin).
 */
export type SandboxAction = Extract<WorkspaceAction, 'viewFiles' | 'useTerminal'>;

interface SandboxRoute {
  methods: readonly string[];
  path: RegExp;
  action: SandboxAction;
}

const READ = ['GET', 'HEAD'] as const;
const SANDBOX_ROUTES: readonly SandboxRoute[] = [
  { methods: READ, path: /^api\/(tree|file|events|download|openapi\.yaml)$/, action: 'viewFiles' },
  { methods: ['GET'], path: /^api\/(exec|port-forward|ssh-port)$/, action: 'useTerminal' },
  { methods: ['GET', 'POST'], path: /^api\/ssh-authorized-keys$/, action: 'useTerminal' },
  { methods: ['DELETE'], path: /^api\/ssh-authorized-keys\/[^/]+$/, action: 'useTerminal' },
];

export type SandboxRouteDecision =
  { ok: true; action: SandboxAction } | { ok: false; status: 404 | 405; allowed: string[] };

/**
 * The action a request for `path` (below the door's `/sandbox/`, as sent: not decoded) needs, or
 * why it is not proxied: 404 for a path the door does not open, 405 for a method it does not take.
 */
export function sandboxRoute(method: string, path: string): SandboxRouteDecision {
  const matching = SANDBOX_ROUTES.filter((route) => route.path.test(path));
  if (matching.length === 0) return { ok: false, status: 404, allowed: [] };
  const route = matching.find((r) => r.methods.includes(method));
  if (route === undefined) {
    return { ok: false, status: 405, allowed: matching.flatMap((r) => r.methods) };
  }
  return { ok: true, action: route.action };
}
