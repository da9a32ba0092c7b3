import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Loopback address ranges for the local nodes that tests start: test files run in parallel, each
 * node gives its pods addresses from its range, and two nodes on one range would hand two pods the
 * same address (and ports). A range is claimed by creating its folder (atomic), holding the
 * claimant's pid; a claim whose process is gone is taken over. Ranges are 127.<20..219>.0.1 up,
 * far from 127.0.0.1 and from the local platform's own 127.1.0.0/16.
 */

const CLAIMS_DIR = join(tmpdir(), 'paddock-test-pod-ranges');
const FIRST_SECOND_OCTET = 20;
const RANGES = 200;
/** Addresses per range: far more pods than any test starts. */
const RANGE_SIZE = 1000;

export interface PodAddressRange {
  /** `FIRST/COUNT`, as `paddock node --pod-addresses` takes it. */
  option: string;
  first: string;
  count: number;
  release(): Promise<void>;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export async function claimPodAddressRange(): Promise<PodAddressRange> {
  await mkdir(CLAIMS_DIR, { recursive: true });
  for (let n = 0; n < RANGES; n++) {
    const claim = join(CLAIMS_DIR, String(n));
    try {
      await mkdir(claim);
    } catch {
      const owner = Number(await readFile(join(claim, 'pid'), 'utf8').catch(() => 'NaN'));
      // A claim still being written, or held by a live process, is not ours to take.
      if (!Number.isInteger(owner) || alive(owner)) continue;
      await rm(claim, { recursive: true, force: true });
      try {
        await mkdir(claim);
      } catch {
        continue;
      }
    }
    await writeFile(join(claim, 'pid'), String(process.pid));
    const first = `127.${FIRST_SECOND_OCTET + n}.0.1`;
    return {
      option: `${first}/${RANGE_SIZE}`,
      first,
      count: RANGE_SIZE,
      release: () => rm(claim, { recursive: true, force: true }),
    };
  }
  throw new Error(`all ${RANGES} pod address ranges for tests are claimed (${CLAIMS_DIR})`);
}
