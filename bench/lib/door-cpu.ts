import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after the command (which may hold spaces and parentheses). */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU seconds (user + system) a live process has used so far, from /proc. */
export function cpuSeconds(pid: number): number {
  const fields = statFields(pid);
  // utime and stime are fields 14 and 15 of stat; the slice starts at field 3.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** The live descendants of a process whose command line matches `pattern`. */
export function descendantsMatching(root: number, pattern: RegExp): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parentOf.set(Number(entry), Number(statFields(Number(entry))[1]));
    } catch {
      // the process ended while the list was read
    }
  }
  const isUnder = (pid: number): boolean => {
    for (let p = parentOf.get(pid); p !== undefined && p > 1; p = parentOf.get(p)) {
      if (p === root) return true;
    }
    return false;
  };
  return [...parentOf.keys()].filter((pid) => {
    if (!isUnder(pid)) return false;
    try {
      return pattern.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '));
    } catch {
      return false;
    }
  });
}

/**
 * CPU seconds used by each of `pids` (and this process, as `self`, its user-mode share as
 * `selfUser`) while `work` runs. On loopback most of a transfer's CPU is the kernel's; both shares
 * grow with the machine's other load, so figures compare only within one run on a quiet machine.
 */
export async function cpuDuring<T>(
  pids: Record<string, number>,
  work: () => Promise<T>,
): Promise<{ result: T; cpu: Record<string, number> }> {
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)]));
  const self = process.cpuUsage();
  const result = await work();
  const selfUsed = process.cpuUsage(self);
  const cpu: Record<string, number> = {
    self: (selfUsed.user + selfUsed.system) / 1e6,
    selfUser: selfUsed.user / 1e6,
  };
  for (const [k, pid] of Object.entries(pids)) cpu[k] = cpuSeconds(pid) - before[k]!;
  return { result, cpu };
}
