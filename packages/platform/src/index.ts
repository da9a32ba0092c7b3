export { Supervisor, type ComponentSpec, type SupervisorOptions } from './supervisor.js';
export { nextRestart } from './restart-policy.js';
export { up, type UpOptions } from './up.js';
export { localComponents, DEFAULT_SANDBOX_PORT, type LocalPlatform } from './components.js';
export { LocalNode, LOCAL_NODE_NAME, type LocalNodeOptions } from './local-node.js';
