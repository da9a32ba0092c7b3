import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { escalationTime, stopDeadline } from './stop-deadline.js';

/**
 * Processes by session. A command the sandbox starts (a Bash call, a terminal's shell) leads a
 * session of its own (setsid). Whatever it starts stays in that session, even a job that `set -m` or
 * an interactive shell moves to a process group of its own; only a process that calls setsid
 * itself leaves it. So "everything a command started" is its session, and this is the one place
 * that finds a session's processes (Linux's /proc) and signals them.
 */

/** How long to wait for SIGKILLed processes to disappear before giving up on them. */
export const SIGKILL_WAIT_MS = 5_000;
/** How often a dying session is checked for remaining members. */
export const SESSION_POLL_MS = 25;

export interface ProcStat {
  pid: number;
  /** One letter: R, S, D, T, Z (zombie), X (dead)... */
  state: string;
  pgrp: number;
  session: number;
  /** The foreground process group of the process's controlling terminal, or -1. */
  tpgid: number;
}

/** Parses /proc/<pid>/stat: "pid (comm) state ppid pgrp session tty_nr tpgid ...". */
export function parseStat(pid: number, text: string): ProcStat | undefined {
  // comm may hold spaces and parentheses: the fields start after the last ')'.
  const close = text.lastIndexOf(')');
  if (close === -1) return undefined;
  const fields = text.slice(close + 2).split(' ');
  return {
    pid,
    state: fields[0] ?? '',
    pgrp: Number(fields[2]),
    session: Number(fields[3]),
    tpgid: Number(fields[5]),
  };
}

/** The stat of a process, or undefined when it is gone (or this is not Linux). */
export function readStat(pid: number): ProcStat | undefined {
  try {
    return parseStat(pid, readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Zombies stay forever under an init that does not reap orphans (containers): they count as gone. */
export function isLive(stat: ProcStat): boolean {
  return stat.state !== 'Z' && stat.state !== 'X';
}

/** Every live process whose stat satisfies `keep` (Linux: a scan of /proc). */
export function liveProcesses(keep: (stat: ProcStat) => boolean): ProcStat[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: ProcStat[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat && isLive(stat) && keep(stat)) found.push(stat);
  }
  return found;
}

/** The live processes of session `sid` (Linux; elsewhere only whether its leader's group lives). */
export function sessionMembers(sid: number): ProcStat[] {
  if (process.platform !== 'linux') {
    try {
      process.kill(-sid, 0);
      return [{ pid: sid, state: 'R', pgrp: sid, session: sid, tpgid: -1 }];
    } catch {
      return [];
    }
  }
  return liveProcesses((stat) => stat.session === sid);
}

function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // ESRCH: already gone.
  }
}

/** Sends a signal to every process group of the session (each job of a job-control shell). */
export function signalSession(sid: number, sig: NodeJS.Signals): void {
  const groups = new Set<number>([sid]);
  for (const member of sessionMembers(sid)) groups.add(member.pgrp);
  for (const group of groups) signal(-group, sig);
}

/** Resolves true once no live process is left in the session, false at `until()` (re-read each poll). */
export async function sessionGone(sid: number, until: () => number): Promise<boolean> {
  for (;;) {
    if (sessionMembers(sid).length === 0) return true;
    if (Date.now() >= until()) return false;
    await delay(SESSION_POLL_MS);
  }
}

/**
 * Ends a session: `signals` (SIGTERM, or SIGHUP for a terminal's hangup) to every process of it,
 * SIGCONT so that a stopped job acts on them, SIGKILL to whatever remains after `graceMs` (or at
 * the shutdown's forcing moment, if that comes first); resolves once none is left alive.
 */
export async function endSession(
  sid: number,
  options: { signals: readonly NodeJS.Signals[]; graceMs: number },
): Promise<void> {
  if (sessionMembers(sid).length === 0) return;
  for (const sig of options.signals) signalSession(sid, sig);
  signalSession(sid, 'SIGCONT');
  const startedAt = Date.now();
  if (await sessionGone(sid, () => escalationTime(startedAt, options.graceMs, stopDeadline()))) {
    return;
  }
  signalSession(sid, 'SIGKILL');
  const killedAt = Date.now();
  await sessionGone(sid, () => killedAt + SIGKILL_WAIT_MS);
}
