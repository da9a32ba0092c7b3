/**
 * The Node.js flags the operator runs with, wherever it runs (its image's entrypoint, `paddock up`,
 * the benchmark). The operator keeps caches of every Workspace and of what it made for each, and
 * is otherwise idle between bursts of watch events: V8's size-optimised heap (smaller young
 * generation, heap grown in smaller steps) fits it. The `operator` benchmark measured, at 10,000
 * Workspaces, RSS 221 MiB without it and 173 MiB with it (idle 161 → 123 MiB), the time until all
 * were Ready unchanged (167 s and 161 s).
 */
export const OPERATOR_NODE_FLAGS = ['--optimize-for-size'] as const;
