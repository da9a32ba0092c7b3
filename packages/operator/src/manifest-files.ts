import { stringify } from 'yaml';
import { GENERATE_COMMAND, type GeneratedFile } from '@paddock/kube';
import { WORKSPACE_CLUSTER_ROLES } from './workspace/index.js';

/** The file in deploy/operator/ that holds the three workspace ClusterRoles. */
export const WORKSPACE_CLUSTER_ROLES_FILE = 'workspace-clusterroles.yaml';

// The same YAML style as the CRD files: Prettier's quoting, no line folding, no anchors.
const yamlOptions = { lineWidth: 0, singleQuote: true, aliasDuplicateObjects: false } as const;

const header = `# Generated from @paddock/operator by \`${GENERATE_COMMAND}\`: edit the roles there, not this file.\n`;

/** The operator's generated manifests: the workspace ClusterRoles, one YAML document each. */
export function operatorManifestFiles(): GeneratedFile[] {
  const documents = WORKSPACE_CLUSTER_ROLES.map((role) => stringify(role, yamlOptions));
  return [{ name: WORKSPACE_CLUSTER_ROLES_FILE, content: header + documents.join('---\n') }];
}
