export { main } from './main.js';
export { parseFlags, checkWorkspace, USAGE, type SandboxFlags } from './cli/flags.js';
export { Workspace, PathError, isWithin, checkPathSyntax } from './workspace/containment.js';
export {
  Scrubber,
  BUILTIN_PATTERNS,
  parsePatternFile,
  secretsFromEnv,
  childEnvironment,
  isSecretName,
} from './scrub/index.js';
export { ToolSet, callTool, describeIssues } from './mcp/dispatch.js';
export { TOOLS } from './mcp/tools/index.js';
export { SERVER_NAME } from './mcp/server.js';
export {
  signIdentityProof,
  createProofKeys,
  proxySecretDigest,
  PROOF_HEADER,
  PROOF_MAX_LIFETIME_SECONDS,
  PROOF_DEFAULT_LIFETIME_SECONDS,
  type SignProofOptions,
} from './api/identity-proof.js';
