/**
 * Runs async steps one after another per key, steps of different keys side by side, and hands
 * each step's outcome to its caller. Not a work queue: every step runs, in the order given, none
 * is merged with another, and a failed one does not stop the next.
 */
export class KeyedSerializer {
  /** Per key, the end of the last step queued on it. */
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, step: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(step);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once every step queued so far (and any queued meanwhile) has ended. */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all(this.tails.values());
  }
}
