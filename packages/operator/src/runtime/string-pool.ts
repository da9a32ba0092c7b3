/**
 * Past this many strings the pool starts again empty: strings already shared stay shared, and the
 * pool never holds more than a bounded index of them.
 */
export const MAX_POOLED_STRINGS = 16_384;

/**
 * One copy of each repeated string an informer keeps. Every object parsed from the API server
 * holds copies of its own: the namespace each of a Workspace's objects names, the owner they
 * carry, the names every workspace namespace repeats (workspace-owner, paddock-workspace-viewer
 * …). Kept for tens of thousands of objects, those copies are a large part of a cache.
 */
export class StringPool {
  private readonly strings = new Map<string, string>();

  constructor(private readonly max = MAX_POOLED_STRINGS) {}

  intern(value: string): string {
    const kept = this.strings.get(value);
    if (kept !== undefined) return kept;
    if (this.strings.size >= this.max) this.strings.clear();
    this.strings.set(value, value);
    return value;
  }

  /** Strings indexed now, for tests. */
  get size(): number {
    return this.strings.size;
  }
}
