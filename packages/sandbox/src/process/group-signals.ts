import { setTimeout as delay } from 'node:timers/promises';
import { liveProcesses } from './session-signals.js';
import { escalationTime, stopDeadline } from './stop-deadline.js';

/** How long a process group (or a session) gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2_000;
/** How often a dying group is checked for remaining members. */
export const GROUP_POLL_MS = 25;

/** Sends a signal to every process of a group; false when the group is already gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether any process of the group is alive. kill(-pgid, 0) also counts zombies, which stay
 * forever under an init that does not reap orphans (containers); on Linux /proc tells them apart.
 */
export function groupHasLiveMembers(pgid: number): Promise<boolean> {
  if (!signalGroup(pgid, 0)) return Promise.resolve(false);
  if (process.platform !== 'linux') return Promise.resolve(true);
  return Promise.resolve(liveProcesses((stat) => stat.pgrp === pgid).length > 0);
}

/**
 * SIGTERM to the whole group, SIGKILL to what is left after the grace period (or at the
 * shutdown's forcing moment, if that comes first).
 */
export async function killGroup(pgid: number): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  const startedAt = Date.now();
  while (Date.now() < escalationTime(startedAt, KILL_GRACE_MS, stopDeadline())) {
    await delay(GROUP_POLL_MS);
    if (!(await groupHasLiveMembers(pgid))) return;
  }
  signalGroup(pgid, 'SIGKILL');
}
