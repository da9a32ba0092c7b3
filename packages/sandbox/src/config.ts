import { DEFAULT_GRACE_MS, env, loggingEnv } from '@paddock/common';

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
  /**
   * The human API's proof (docs/sandbox/remote-access.md): the PEM public key (Ed25519 or P-256)
   * of the proxy that signs X-Paddock-Proof tokens, and the audience they must name.
   */
  SVC_API_PROOF_PUBLIC_KEY: env.string(),
  SVC_API_PROOF_AUDIENCE: env.string(),
  /** Or, for a reverse proxy that cannot sign: the SHA-256 (hex) of its static X-Paddock-Proof. */
  SVC_API_PROXY_SECRET_SHA256: env.string(),
  /** A file of extra scrubbing patterns, one `kind=regex` per line. */
  SVC_SCRUB_PATTERNS_FILE: env.string(),
  /**
   * The one grace budget of a shutdown, in milliseconds, shared by every stop step (the
   * specification's 10 seconds by default; tests shorten it).
   */
  SVC_SHUTDOWN_GRACE_MS: env.integer(DEFAULT_GRACE_MS, { min: 100, max: 600_000 }),
};
