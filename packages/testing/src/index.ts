export {
  ensurePrerequisites,
  missingPrerequisites,
  onPath,
  postgresBinDir,
  CHROMIUM_PATH,
  DEBIAN_PYTHON,
  PREREQUISITES,
  type Prerequisite,
} from './prerequisites.js';
export { start, type Started } from './processes.js';
export { freePort } from './ports.js';
export { tempDir } from './temp.js';
export { makeRenameTree, startRenameLoop, type RenameLoop } from './rename-loop.js';
export { eventually, eventuallyOk, isAlive, assertDies } from './waiting.js';
export { startPostgres, type StartedPostgres } from './postgres.js';
export { startSmtp, type RunningSmtp, type ReceivedMail } from './smtp.js';
export {
  agentPod,
  startEmbeddedCluster,
  startOperator,
  type EmbeddedCluster,
} from './embedded-cluster.js';
export { launchBrowser, screenshot, pageProblems, SCREENSHOT_DIR } from './browser.js';
export {
  startDashboard,
  Client,
  errorOf,
  DASHBOARD_BIN,
  SESSION_SECRET,
  ADMIN_PASSWORD,
  type RunningDashboard,
  type Answer,
} from './dashboard.js';
export { startOAuthDashboard, type OAuthDashboard } from './oauth-dashboard.js';
export {
  startOidcProvider,
  manyGroups,
  type AccountClaims,
  type OidcProviderOptions,
  type RunningOidcProvider,
} from './oidc-provider.js';
export {
  startAgentPlatform,
  type AgentPlatform,
  type AgentPlatformOptions,
  type PlatformPod,
} from './agent-platform.js';
export { INSPECTOR_CLI } from './inspector.js';
export { claimPodAddressRange, type PodAddressRange } from './pod-address-ranges.js';
export { startControlPlane, type ControlPlane } from './control-plane.js';
export { validateUpstream, type UpstreamObject } from './upstream-schemas.js';
export {
  startScriptedOpenAI,
  startScriptedAnthropic,
  type ScriptedModelServer,
  type ScriptedToolCall,
  type ScriptedTurn,
  type RecordedRequest,
} from './scripted-models.js';
export {
  as,
  MCP_INITIALIZE,
  PROOF,
  SANDBOX_BIN,
  startApiSandbox,
  startSandbox,
  TEST_PROXY_SECRET,
  TEST_PROXY_SECRET_SHA256,
  type RunningApiSandbox,
  type RunningSandbox,
} from './sandbox.js';
export {
  startEchoHttpTool,
  startGreeterMcp,
  GREET_SCHEMA,
  type ToolServer,
} from './tool-servers.js';
