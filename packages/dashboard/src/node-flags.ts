/**
 * The Node.js flags the dashboard runs with, wherever it runs (its image's entrypoint, `paddock
 * up`, the tests). The door streams port-forwards and downloads through the dashboard: every 64 KiB
 * read is a new Buffer, and with V8's default young generation those outlive it, are promoted and
 * wait for full collections of the whole heap. A larger young generation lets them die young: the
 * `door` benchmark measured the dashboard's CPU per GiB tunnelled fall from 2.2 s to 0.8 s.
 */
export const DASHBOARD_NODE_FLAGS = ['--max-semi-space-size=32'] as const;
