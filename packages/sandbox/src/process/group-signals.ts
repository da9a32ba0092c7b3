import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

/** How long a process group gets between SIGTERM and SIGKILL. */
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
export async function groupHasLiveMembers(pgid: number): Promise<boolean> {
  if (!signalGroup(pgid, 0)) return false;
  if (process.platform !== 'linux') return true;
  const entries = await readdir('/proc').catch(() => undefined);
  if (!entries) return true;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so parse after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}

/** SIGTERM to the whole group, SIGKILL to what is left after the grace period. */
export async function killGroup(pgid: number): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  const deadline = Date.now() + KILL_GRACE_MS;
  while (Date.now() < deadline) {
    await delay(GROUP_POLL_MS);
    if (!(await groupHasLiveMembers(pgid))) return;
  }
  signalGroup(pgid, 'SIGKILL');
}
