export {
  parseCommandLine,
  parsePort,
  USAGE,
  DEFAULT_BIND,
  type Command,
  type TargetFlags,
} from './command-line.js';
export {
  credentialsFileOf,
  ENV_TOKEN,
  ENV_URL,
  exposedMode,
  normalizeBaseUrl,
  parseCredentialsFile,
  parseHeader,
  readCredentialsFile,
  requestHeaders,
  resolveTarget,
  type CredentialsFile,
  type Target,
} from './credentials.js';
export { ForwardError, causeMessage } from './failure.js';
export {
  forwardLocalPort,
  formatHostPort,
  type LocalForward,
  type LocalForwardOptions,
} from './local-forward.js';
export { SandboxApi, apiUrl, type RegisteredKey } from './sandbox-api.js';
export {
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
