import { apiVersionOf, type ResourceType } from './resource-type.js';
import { compareVersions } from './version-priority.js';

export interface ApiGroup {
  name: string;
  /** Ordered by preference, the preferred first. */
  versions: string[];
}

/**
 * The resource types the server serves: the built-in kinds, then those of each
 * CustomResourceDefinition, which come and go with it.
 */
export class Registry {
  private readonly types = new Map<string, ResourceType>();
  /** Groups in the order discovery lists them: built-in groups first, in the order added. */
  private readonly groupOrder: string[] = [];

  constructor(builtins: readonly ResourceType[]) {
    for (const type of builtins) this.add(type);
  }

  add(type: ResourceType): void {
    this.types.set(keyOf(type.group, type.version, type.plural), type);
    if (!this.groupOrder.includes(type.group)) this.groupOrder.push(type.group);
  }

  /** Replaces the kinds a CustomResourceDefinition serves. */
  setCrdKinds(crdName: string, types: readonly ResourceType[]): void {
    this.removeCrd(crdName);
    for (const type of types) this.add(type);
  }

  removeCrd(crdName: string): void {
    for (const [key, type] of this.types) if (type.crd === crdName) this.types.delete(key);
    const live = new Set([...this.types.values()].map((t) => t.group));
    for (let i = this.groupOrder.length - 1; i >= 0; i--) {
      if (!live.has(this.groupOrder[i]!)) this.groupOrder.splice(i, 1);
    }
  }

  get(group: string, version: string, plural: string): ResourceType | undefined {
    return this.types.get(keyOf(group, version, plural));
  }

  all(): ResourceType[] {
    return [...this.types.values()];
  }

  /** The types at one group version, in the order they were added. */
  resources(group: string, version: string): ResourceType[] {
    return this.all().filter((t) => t.group === group && t.version === version);
  }

  /** Every served group with its versions (core group '' included). */
  groups(): ApiGroup[] {
    return this.groupOrder.map((name) => ({
      name,
      versions: [
        ...new Set(
          this.all()
            .filter((t) => t.group === name)
            .map((t) => t.version),
        ),
      ].sort(compareVersions),
    }));
  }

  /** The preferred type of a kind, from an object's apiVersion and kind (ownerReferences, reviews). */
  byKind(apiVersion: string, kind: string): ResourceType | undefined {
    return this.all().find((t) => apiVersionOf(t) === apiVersion && t.kind === kind);
  }

  /** One type per storage (the preferred version), for work over every stored object. */
  storedTypes(): ResourceType[] {
    const byStorage = new Map<string, ResourceType>();
    for (const type of this.all()) {
      if (!type.stored) continue;
      const seen = byStorage.get(type.storage);
      if (!seen || (seen.conversion && !type.conversion)) byStorage.set(type.storage, type);
      else if (!type.conversion && compareVersions(type.version, seen.version) < 0) {
        byStorage.set(type.storage, type);
      }
    }
    return [...byStorage.values()];
  }
}

function keyOf(group: string, version: string, plural: string): string {
  return `${group}/${version}/${plural}`;
}
