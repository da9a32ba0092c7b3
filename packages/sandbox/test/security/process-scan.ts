import { readdir, readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';

/** A name no other process on the machine carries, for `exec -a <marker>`. */
export function uniqueMarker(topic: string): string {
  return `paddock-${topic}-${randomUUID().slice(0, 8)}`;
}

/**
 * The live processes whose command line holds `marker` (a scan of /proc; zombies have an empty
 * command line and do not count, as they run no more).
 */
export async function processesWith(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0').some((arg) => arg.includes(marker))) found.push(Number(entry));
  }
  return found;
}
