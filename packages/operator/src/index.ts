export { main, USAGE, operatorEnv } from './main.js';
export { OPERATOR_NODE_FLAGS } from './node-flags.js';
export * from './workspace/index.js';
export * from './toolregistry/index.js';
export { WorkspaceController, WORKSPACE_FINALIZER } from './controllers/workspace-controller.js';
export { ToolRegistryController } from './controllers/tool-registry-controller.js';
export {
  AgentRuntimeController,
  AGENT_RUNTIME_CONTROLLER,
} from './controllers/agent-runtime-controller.js';
/**
 * The identity-proof signing key: the Secret PROOF_SECRET_NAME in the operator's namespace
 * (SVC_OPERATOR_NAMESPACE) holds the Ed25519 private key (PKCS#8 PEM) under PROOF_SIGNING_KEY and
 * its public key (SPKI PEM) under PROOF_SECRET_KEY; whatever signs proofs for the sandboxes reads it.
 */
export {
  PROOF_SECRET_KEY,
  PROOF_SECRET_NAME,
  PROOF_SIGNING_KEY,
  proofKeysOf,
  type ProofKeyPair,
} from './agentruntime/index.js';
export {
  operatorManifestFiles,
  OPERATOR_RBAC_FILE,
  WORKSPACE_CLUSTER_ROLES_FILE,
} from './manifest-files.js';
export {
  OPERATOR_CLUSTER_ROLE,
  OPERATOR_LEADER_ELECTION_ROLE,
  OPERATOR_NAME,
  LEADER_ELECTION_ROLE,
  type RbacRule,
  type RbacRoleObject,
} from './operator-rbac.js';
