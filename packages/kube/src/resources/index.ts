import { API_VERSION, GROUP, VERSION } from '../api-group.js';
import {
  customResourceDefinition,
  type CustomResourceDefinition,
  type KindDefinition,
} from '../custom-resource-definition.js';
import { agentRuntimeDefinition } from './agent-runtime.js';
import { promptPackDefinition } from './prompt-pack.js';
import { toolRegistryDefinition } from './tool-registry.js';
import { workspaceDefinition } from './workspace.js';

/** What a client needs to address one kind (`/apis/{group}/{version}/[namespaces/{ns}/]{plural}`). */
export interface PaddockKind {
  readonly group: typeof GROUP;
  readonly version: typeof VERSION;
  readonly apiVersion: typeof API_VERSION;
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly scope: 'Cluster' | 'Namespaced';
  /** The scope again, as clients that build request paths ask for it. */
  readonly namespaced: boolean;
  readonly crd: CustomResourceDefinition;
}

function paddockKind(definition: KindDefinition): PaddockKind {
  const { kind, plural, singular, shortNames, scope } = definition;
  return {
    group: GROUP,
    version: VERSION,
    apiVersion: API_VERSION,
    kind,
    plural,
    singular,
    shortNames,
    scope,
    namespaced: scope === 'Namespaced',
    crd: customResourceDefinition(definition),
  };
}

/** Every Paddock kind, in the order their CRDs are applied. */
export const KINDS: readonly PaddockKind[] = [
  workspaceDefinition,
  toolRegistryDefinition,
  agentRuntimeDefinition,
  promptPackDefinition,
].map(paddockKind);
