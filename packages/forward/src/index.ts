export {
  parseCommandLine,
  parsePort,
  USAGE,
  DEFAULT_BIND,
  type Command,
  type SshPreparation,
  type TargetFlags,
} from './command-line.js';
export {
  API_KEY_HEADER,
  credentialsFileOf,
  ENV_AGENT,
  ENV_API_KEY,
  ENV_DASHBOARD_URL,
  ENV_TOKEN,
  ENV_URL,
  ENV_WORKSPACE,
  exposedMode,
  normalizeBaseUrl,
  parseCredentialsFile,
  parseHeader,
  readCredentialsFile,
  requestHeaders,
  resolveTarget,
  targetForm,
  type CredentialsFile,
  type Target,
} from './credentials.js';
export {
  checkObjectName,
  DEFAULT_REPLICA,
  parseReplica,
  podName,
  sandboxBaseUrl,
  type DashboardAgent,
} from './dashboard.js';
export { ForwardError, causeMessage } from './failure.js';
export {
  knownHostsText,
  parsePublicKeyFile,
  readPublicKeyFile,
  writeKnownHosts,
  type PublicKeyFile,
} from './known-hosts.js';
export {
  forwardLocalPort,
  formatHostPort,
  type LocalForward,
  type LocalForwardOptions,
} from './local-forward.js';
export {
  SandboxApi,
  apiUrl,
  parseSshEndpoint,
  type RegisteredKey,
  type SshEndpoint,
} from './sandbox-api.js';
export {
  hostKeyAlias,
  hostLinesFor,
  markers,
  proxyCommandLine,
  renderHostBlock,
  replaceHostBlock,
  shellQuote,
  SSH_USER,
  type HostBlock,
} from './ssh-config.js';
export {
  sshSetup,
  sshSetupPaths,
  targetArgs,
  type SshSetupOptions,
  type SshSetupPaths,
  type SshSetupResult,
} from './ssh-setup.js';
export {
  describeEnd,
  openTunnel,
  pipeTunnel,
  tunnelUrl,
  type Tunnel,
  type TunnelEnd,
} from './tunnel.js';
