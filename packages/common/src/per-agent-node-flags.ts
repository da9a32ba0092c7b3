/**
 * The Node.js flags of the processes every agent pod runs (paddock-sandbox and paddock-agent),
 * wherever they run: the image's entrypoint, the local node's processes, the benchmarks
 * (docs/decisions/0034). A young generation of at most 4 MiB per semi-space (V8's default grows to
 * 16): zipping 1 GiB peaked at 143 MiB instead of 166, as fast, and MCP calls per second stayed
 * within a run's noise. `--optimize-for-size` would save as much at rest but cost 25-48% of MCP
 * throughput; a 1 MiB young generation made zipping 25% slower.
 */
export const PER_AGENT_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];
