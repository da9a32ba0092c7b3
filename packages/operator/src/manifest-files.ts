import { stringify } from 'yaml';
import { GENERATE_COMMAND, type GeneratedFile } from '@paddock/kube';
import { OPERATOR_CLUSTER_ROLE, OPERATOR_LEADER_ELECTION_ROLE } from './operator-rbac.js';
import { WORKSPACE_CLUSTER_ROLES } from './workspace/index.js';

/** The file in deploy/operator/ that holds the three workspace ClusterRoles. */
export const WORKSPACE_CLUSTER_ROLES_FILE = 'workspace-clusterroles.yaml';

/** The file in deploy/operator/ that holds the operator's own ClusterRole and leader-election Role. */
export const OPERATOR_RBAC_FILE = 'operator-rbac.yaml';

// The same YAML style as the CRD files: Prettier's quoting, no line folding, no anchors.
const yamlOptions = { lineWidth: 0, singleQuote: true, aliasDuplicateObjects: false } as const;

const header = `# Generated from @paddock/operator by \`${GENERATE_COMMAND}\`: edit the roles there, not this file.\n`;

function documents(objects: readonly object[]): string {
  return header + objects.map((object) => stringify(object, yamlOptions)).join('---\n');
}

/**
 * The operator's generated manifests: the workspace ClusterRoles, the operator's own ClusterRole
 * and leader-election Role, and the kustomization that lists them (deploy/base includes it).
 */
export function operatorManifestFiles(): GeneratedFile[] {
  const kustomization = {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    resources: [WORKSPACE_CLUSTER_ROLES_FILE, OPERATOR_RBAC_FILE],
  };
  return [
    { name: WORKSPACE_CLUSTER_ROLES_FILE, content: documents(WORKSPACE_CLUSTER_ROLES) },
    {
      name: OPERATOR_RBAC_FILE,
      content: documents([OPERATOR_CLUSTER_ROLE, OPERATOR_LEADER_ELECTION_ROLE]),
    },
    { name: 'kustomization.yaml', content: documents([kustomization]) },
  ];
}
