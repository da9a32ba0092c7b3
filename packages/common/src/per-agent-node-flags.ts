/**
 * The Node.js flags of the processes every agent pod runs (paddock-sandbox and paddock-agent),
 * wherever they run: the image's entrypoint, the local node's processes, the benchmarks
 * (docs/decisions/0034, 0037). A young generation of at most 4 MiB per semi-space (V8's default
 * grows to 16): zipping 1 GiB peaked at 143 MiB instead of 166, as fast. The old generation grows
 * by half its live size between full collections instead of up to fourfold: under 50 MCP sessions
 * the sandbox peaked at 112 MiB instead of 177-182, for some 10% more CPU per call.
 * `--optimize-for-size` would save as much at rest but cost 25-48% of MCP throughput; a 1 MiB
 * young generation made zipping 25% slower.
 */
export const PER_AGENT_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=4',
  '--heap-growing-percent=50',
];
