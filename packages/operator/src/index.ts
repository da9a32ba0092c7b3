export { main, USAGE, operatorEnv } from './main.js';
export * from './workspace/index.js';
export * from './toolregistry/index.js';
export { WorkspaceController, WORKSPACE_FINALIZER } from './controllers/workspace-controller.js';
export { ToolRegistryController } from './controllers/tool-registry-controller.js';
export { operatorManifestFiles, WORKSPACE_CLUSTER_ROLES_FILE } from './manifest-files.js';
