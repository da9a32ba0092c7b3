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
} from '@paddock/common/scrub';
export { ToolSet, callTool, describeIssues } from './mcp/dispatch.js';
export { TOOLS } from './mcp/tools/index.js';
export { SERVER_NAME } from './mcp/server.js';
export { proxySecretDigest } from '@paddock/common';
