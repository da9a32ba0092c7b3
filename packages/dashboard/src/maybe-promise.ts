/**
 * A value now, or a promise of it later: what a step on a per-request path returns when it usually
 * answers from memory. Each `await` of a value already known costs a promise and a turn of the
 * microtask queue; an API key presented again is decided from memory, so its path stays synchronous
 * and pays for a promise only where the store is read.
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `fn` applied to the value: at once when it is known, once it resolves when it is a promise. A
 * throw of `fn` on a known value is thrown here; on a promise it rejects the promise returned.
 */
export function then<T, U>(
  value: MaybePromise<T>,
  fn: (value: T) => MaybePromise<U>,
): MaybePromise<U> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}

/**
 * Runs `step` and reports its outcome to a callback: at once when it finished synchronously, when
 * its promise settles otherwise. A synchronous throw is reported like a rejection.
 */
export function settle<T>(
  step: () => MaybePromise<T>,
  done: (err: unknown, value?: T) => void,
): void {
  let outcome: MaybePromise<T>;
  try {
    outcome = step();
  } catch (err) {
    done(err);
    return;
  }
  if (outcome instanceof Promise) outcome.then((value) => done(undefined, value), done);
  else done(undefined, outcome);
}
