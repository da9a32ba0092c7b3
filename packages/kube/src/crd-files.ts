import { stringify } from 'yaml';
import { customResourceDefinitions } from './crds.js';

/** The command that writes the CRD files, named in their header and in staleness errors. */
export const GENERATE_COMMAND = 'npm run generate';

export interface GeneratedFile {
  /** A file name inside the CRD folder. */
  name: string;
  content: string;
}

// Prettier's quoting (singleQuote), long patterns on one line, and every node written out in full
// rather than as YAML anchors and aliases, so the files read like hand-written manifests.
const yamlOptions = { lineWidth: 0, singleQuote: true, aliasDuplicateObjects: false } as const;

const header = `# Generated from @paddock/kube by \`${GENERATE_COMMAND}\`: edit the schema there, not this file.\n`;

/**
 * The kustomization's file name. Kustomize also reads `Kustomization`, and `kubectl apply -f` of
 * a folder reads only .yaml, .yml and .json files: so the folder takes both `kubectl apply -f`
 * and `kubectl apply -k`, as people type either.
 */
export const KUSTOMIZATION_FILE = 'Kustomization';

/** One YAML file per CustomResourceDefinition plus the kustomization that lists them. */
export function crdFiles(): GeneratedFile[] {
  const files = customResourceDefinitions().map((crd) => ({
    name: `${crd.metadata.name}.yaml`,
    content: header + stringify(crd, yamlOptions),
  }));
  const kustomization = {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    resources: files.map((file) => file.name),
  };
  return [
    ...files,
    { name: KUSTOMIZATION_FILE, content: header + stringify(kustomization, yamlOptions) },
  ];
}
