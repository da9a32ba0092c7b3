import type { Change } from './persistence.js';

/**
 * The most recent changes, oldest first, bounded: a watch resumes from any version still in it and
 * is told 410 Gone for anything older.
 */
export class ChangeLog {
  private readonly entries: Change[] = [];
  private start = 0;

  constructor(
    private readonly capacity: number,
    /** Every change up to this version has been dropped (or was never kept). */
    private compacted: number,
  ) {}

  get compactedThrough(): number {
    return this.compacted;
  }

  /** Adds a change; returns the version the log now starts after when it dropped one. */
  push(change: Change): number | undefined {
    this.entries.push(change);
    if (this.entries.length - this.start <= this.capacity) return undefined;
    this.compacted = this.entries[this.start]!.resourceVersion;
    this.entries[this.start] = undefined as unknown as Change;
    this.start++;
    // Reclaim the dropped slots now and then rather than shifting the array on every push.
    if (this.start > this.capacity) {
      this.entries.splice(0, this.start);
      this.start = 0;
    }
    return this.compacted;
  }

  /** The changes after `version`, or undefined when some of them are no longer kept. */
  since(version: number): Change[] | undefined {
    if (version < this.compacted) return undefined;
    return this.entries.slice(this.firstAfter(version));
  }

  /** The kept changes up to and including `version`, oldest first. */
  through(version: number): Change[] {
    return this.entries.slice(this.start, this.firstAfter(version));
  }

  /** The index of the first kept change after `version`. */
  private firstAfter(version: number): number {
    let low = this.start;
    let high = this.entries.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.entries[mid]!.resourceVersion <= version) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
