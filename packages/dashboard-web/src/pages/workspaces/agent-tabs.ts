// Imports end in .js: the unit tests type-check this module as Node code, outside the bundler.
import type { Pod, WorkspacePermissions } from './types.js';

/** What the agent page decides: its tabs, the one open, the pod shown, the keys moving between. */

export type TabKey = 'overview' | 'runs' | 'files' | 'changes' | 'terminal' | 'connect' | 'log';

export interface AgentTab {
  key: TabKey;
  label: string;
  allowed: (p: WorkspacePermissions) => boolean;
}

export const TABS: readonly AgentTab[] = [
  { key: 'overview', label: 'Overview', allowed: () => true },
  { key: 'runs', label: 'Runs', allowed: (p) => p.viewRuns === true },
  { key: 'files', label: 'Files', allowed: (p) => p.viewFiles === true },
  { key: 'changes', label: 'Changes', allowed: (p) => p.viewFiles === true },
  // Absent, not merely failing, for those who may not open one.
  { key: 'terminal', label: 'Terminal', allowed: (p) => p.useTerminal === true },
  { key: 'connect', label: 'Connect', allowed: () => true },
  { key: 'log', label: 'Log', allowed: () => true },
];

/** The tabs a person with these permissions sees, in order. */
export function tabsFor(permissions: WorkspacePermissions): AgentTab[] {
  return TABS.filter((t) => t.allowed(permissions));
}

/** The tab open: the one the address names if the person sees it, else the overview. */
export function activeTab(tabs: readonly AgentTab[], param: string | null): TabKey {
  return tabs.find((t) => t.key === param)?.key ?? 'overview';
}

/** The tab's value in the address: none for the overview, the page's first tab. */
export function tabParam(key: TabKey): string | null {
  return key === 'overview' ? null : key;
}

/** Whether a tab works on one pod (and shows which). */
export function showsPod(key: TabKey): boolean {
  return key === 'runs' || key === 'files' || key === 'changes' || key === 'terminal';
}

/** The pods by name. */
export function podsByName<P extends Pick<Pod, 'name'>>(pods: readonly P[]): P[] {
  return [...pods].sort((a, b) => a.name.localeCompare(b.name));
}

/** The pod the workspace tabs start with: the first running one by name, else the first. */
export function defaultPod(pods: readonly Pick<Pod, 'name' | 'phase'>[]): string | undefined {
  const byName = podsByName(pods);
  return (byName.find((p) => p.phase === 'Running') ?? byName[0])?.name;
}

/** The pod shown: the one the address names while it exists, else the default. */
export function chosenPod(
  pods: readonly Pick<Pod, 'name' | 'phase'>[],
  param: string | null,
): string | undefined {
  return param !== null && pods.some((p) => p.name === param) ? param : defaultPod(pods);
}

/**
 * The tab a key moves to in a tab list (the WAI-ARIA tabs pattern: arrows wrap, Home and End go
 * to the ends), or -1 when the key does not move.
 */
export function tabIndexAfterKey(key: string, at: number, count: number): number {
  switch (key) {
    case 'ArrowRight':
      return (at + 1) % count;
    case 'ArrowLeft':
      return (at - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return -1;
  }
}

/** The address's parameters with some set and some (null) removed; the rest kept. */
export function withParams(
  current: URLSearchParams,
  changes: Record<string, string | null>,
): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) next.delete(key);
    else next.set(key, value);
  }
  return next;
}

/** Why a tab that needs a pod has none: scaled to nothing, or none running yet. */
export function noPodText(replicas: number): string {
  return replicas === 0
    ? 'The agent is scaled to 0 replicas, so there is no workspace to open.'
    : 'No pod runs for this agent yet: its workspace opens once one does.';
}
