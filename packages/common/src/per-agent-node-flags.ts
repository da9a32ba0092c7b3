/**
 * A young generation of at most 4 MiB per semi-space (V8's default grows to 16): zipping 1 GiB
 * peaked at 143 MiB instead of 166, as fast; 1 MiB made zipping 25% slower (docs/decisions/0034).
 */
const YOUNG_GENERATION = '--max-semi-space-size=4';

/**
 * The Node.js flags of paddock-sandbox wherever it runs: the image's entrypoint, the local node's
 * processes, the benchmarks (docs/decisions/0034, 0037, 0039). The old generation may grow by 1.5
 * times its live size between full collections instead of up to fourfold: under 50 MCP sessions
 * the sandbox peaks at about 130 MiB instead of 158-182. Not less: a tunnel holds up to some 32 MiB
 * of read buffers between young collections, which V8 counts against the old generation's limit;
 * with the limit at half the live size above it, every 16 MiB streamed started a full collection,
 * and the tunnel ran at half its speed.
 */
export const SANDBOX_NODE_FLAGS: readonly string[] = [
  YOUNG_GENERATION,
  '--heap-growing-percent=150',
];

/**
 * The Node.js flags of paddock-agent, the agent container's command, wherever it runs
 * (docs/decisions/0037). It streams no bulk bytes, so its old generation may grow by only half its
 * live size: it stays at about 150 MiB over its runs (200-270 with more room).
 */
export const AGENT_NODE_FLAGS: readonly string[] = [YOUNG_GENERATION, '--heap-growing-percent=50'];
