import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import assert from 'node:assert/strict';

/** Polls `check` until it returns a value (not undefined), failing the test after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
  pollMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await delay(pollMs);
  }
}

/**
 * Like `eventually`, for checks that read a system still settling: a check that throws counts as
 * not yet, and the last error is named if time runs out.
 */
export async function eventuallyOk<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  pollMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      assert.fail(
        `timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`,
      );
    }
    await delay(pollMs);
  }
}

/**
 * Alive and not a zombie. Zombies count as dead: orphans stay zombies on machines whose init does
 * not reap them, though they run no more.
 */
export async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X' && state !== '';
}

/** Waits for a process to be gone (a zombie counts as gone). */
export async function assertDies(pid: number, timeoutMs = 10_000): Promise<void> {
  await eventually(
    `pid ${pid} to die`,
    async () => ((await isAlive(pid)) ? undefined : true),
    timeoutMs,
  );
}
