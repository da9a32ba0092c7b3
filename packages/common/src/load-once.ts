/**
 * `load`, run on first need and shared by every caller (concurrent first calls included); a load
 * that failed is tried again by the next call, so a passing fault does not stick.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
}
