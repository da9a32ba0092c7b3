export { main, USAGE, operatorEnv } from './main.js';
export * from './workspace/index.js';
export * from './toolregistry/index.js';
export { WorkspaceController, WORKSPACE_FINALIZER } from './controllers/workspace-controller.js';
export { ToolRegistryController } from './controllers/tool-registry-controller.js';
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
