import { endSession, readStat } from '../process/session-signals.js';

/**
 * The processes of a terminal: the pty's shell leads its own session (setsid), and an interactive
 * shell puts each job in a process group of its own, so "everything the terminal started" is the
 * session, not one group (see process/session-signals.ts). Processes that leave the session
 * (setsid, daemons) are out of reach.
 */

/** How long the session gets between SIGHUP (a terminal's hangup) and SIGKILL. */
export const HANGUP_GRACE_MS = 2_000;

function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // ESRCH: already gone.
  }
}

/**
 * Hangs the terminal up: SIGHUP to every process of session `sid` (what a closing terminal sends),
 * SIGKILL to whatever remains after HANGUP_GRACE_MS; resolves once none is left alive.
 */
export async function hangUpSession(sid: number): Promise<void> {
  // SIGCONT follows: a stopped job would not act on SIGHUP until continued.
  await endSession(sid, { signals: ['SIGHUP'], graceMs: HANGUP_GRACE_MS });
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
