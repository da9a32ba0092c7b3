/**
 * A bounded map whose entries expire: for answers that are expensive to recompute on every request
 * and may be a little stale. When full, the oldest entry goes. An entry's expiry is fixed when it
 * is set; reading never extends it. Set an entry only with a value just read from its source, never
 * again on a cache hit: that would slide the expiry and the staleness bound with it.
 */
export class ExpiringCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
  ) {}

  get(key: K, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now >= entry.expires) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps the value until `now + ttl`, or until `expires` when that comes first. */
  set(key: K, value: V, now: number, expires = Infinity): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: Math.min(now + this.ttlMs, expires) });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
