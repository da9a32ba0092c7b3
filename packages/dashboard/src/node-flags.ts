/**
 * The Node.js flags the dashboard runs with, wherever it runs (its image's entrypoint, `paddock
 * up`, the tests). The door streams port-forwards and downloads through the dashboard, and every
 * 64 KiB read is a new Buffer outside the JavaScript heap. A young generation of 4 MiB frees them
 * often and in small batches; the old generation's room (as the sandbox's, decision 0039) keeps
 * them from starting full collections (docs/decisions/0040).
 */
export const DASHBOARD_NODE_FLAGS = [
  '--max-semi-space-size=4',
  '--heap-growing-percent=150',
] as const;

/**
 * The environment the dashboard runs with beside its flags, wherever it runs. glibc gives the
 * memory of freed read buffers back to the system as soon as 128 KiB lie free at the top of its
 * heap, and the next reads fault fresh zeroed pages in again: a fifth of the dashboard's CPU while
 * it relayed a tunnel. It keeps up to 128 MiB free instead, and takes 16 MiB more each time it
 * grows (docs/decisions/0040).
 */
export const DASHBOARD_ENV = {
  GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=134217728:glibc.malloc.top_pad=16777216',
} as const;
