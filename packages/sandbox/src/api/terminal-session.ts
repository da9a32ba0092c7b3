import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * The processes of a terminal: the pty's shell leads its own session (setsid), and an interactive
 * shell puts each job in a process group of its own, so "everything the terminal started" is the
 * session, not one group. Processes that leave the session (setsid, daemons) are out of reach.
 */

/** How long the session gets between SIGHUP (a terminal's hangup) and SIGKILL. */
export const HANGUP_GRACE_MS = 2_000;
/** How long to wait for SIGKILLed processes to disappear before giving up on them. */
const SIGKILL_WAIT_MS = 5_000;
/** How often a dying session is checked for remaining members. */
const SESSION_POLL_MS = 25;

interface ProcStat {
  pid: number;
  state: string;
  pgrp: number;
  session: number;
  /** The foreground process group of the process's controlling terminal, or -1. */
  tpgid: number;
}

/** /proc/<pid>/stat: "pid (comm) state ppid pgrp session tty_nr tpgid ...", comm may hold ')' . */
function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    pid,
    state: fields[0] ?? '',
    pgrp: Number(fields[2]),
    session: Number(fields[3]),
    tpgid: Number(fields[5]),
  };
}

/** Zombies stay forever under an init that does not reap orphans (containers): they count as gone. */
function isLive(stat: ProcStat): boolean {
  return stat.state !== 'Z' && stat.state !== 'X';
}

/** The live processes of session `sid` (Linux; elsewhere only whether its leader's group lives). */
function liveMembers(sid: number): ProcStat[] {
  if (process.platform !== 'linux') {
    try {
      process.kill(-sid, 0);
      return [{ pid: sid, state: 'R', pgrp: sid, session: sid, tpgid: -1 }];
    } catch {
      return [];
    }
  }
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const members: ProcStat[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat && stat.session === sid && isLive(stat)) members.push(stat);
  }
  return members;
}

function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // ESRCH: already gone.
  }
}

/** Sends a signal to every process group of the session (each job of an interactive shell). */
function signalSession(sid: number, sig: NodeJS.Signals): void {
  const groups = new Set<number>([sid]);
  for (const member of liveMembers(sid)) groups.add(member.pgrp);
  for (const group of groups) signal(-group, sig);
}

async function untilGone(sid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (liveMembers(sid).length === 0) return true;
    if (Date.now() >= deadline) return false;
    await delay(SESSION_POLL_MS);
  }
}

/**
 * Hangs the terminal up: SIGHUP to every process of session `sid` (what a closing terminal sends),
 * SIGKILL to whatever remains after HANGUP_GRACE_MS; resolves once none is left alive.
 */
export async function hangUpSession(sid: number): Promise<void> {
  if (liveMembers(sid).length === 0) return;
  signalSession(sid, 'SIGHUP');
  // A stopped job would not act on SIGHUP until continued.
  signalSession(sid, 'SIGCONT');
  if (await untilGone(sid, HANGUP_GRACE_MS)) return;
  signalSession(sid, 'SIGKILL');
  await untilGone(sid, SIGKILL_WAIT_MS);
}

/**
 * Sends a client's signal where a terminal's keyboard would: to the terminal's foreground process
 * group (the running job, or the shell itself at its prompt).
 */
export function signalForeground(shellPid: number, sig: NodeJS.Signals): void {
  const stat = readStat(shellPid);
  const foreground = stat && stat.tpgid > 0 ? stat.tpgid : shellPid;
  signal(-foreground, sig);
}

/** Whether the shell (the pty's direct child) has exited and been reaped. */
export function hasExited(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
