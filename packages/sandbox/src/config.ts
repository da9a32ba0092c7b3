import { env, loggingEnv } from '@paddock/common';

/**
 * The sandbox's SVC_* variables, beside its flags. The specification configures the sandbox by
 * flags; what a deployment needs beyond them lives here (see docs/sandbox/mcp.md).
 */
export const sandboxEnv = {
  ...loggingEnv,
  /** When set, every MCP request must carry `Authorization: Bearer <token>`. */
  SVC_MCP_TOKEN: env.string(),
  /** Browser origins allowed to call the MCP listener besides its own. */
  SVC_MCP_ALLOWED_ORIGINS: env.list(),
  /** Seconds between keepalive comments on idle event streams. */
  SVC_MCP_KEEPALIVE_SECONDS: env.integer(15, { min: 1, max: 3600 }),
  /** A file of extra scrubbing patterns, one `kind=regex` per line. */
  SVC_SCRUB_PATTERNS_FILE: env.string(),
};
