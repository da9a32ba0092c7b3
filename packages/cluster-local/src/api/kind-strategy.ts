import type { FieldError, KubeObject } from '../contracts.js';

/** What differs between kinds when objects are created and updated (Kubernetes' REST strategies). */
export interface KindStrategy {
  /** Server-set fields of a new object: defaults, initial status. */
  prepareForCreate?(object: KubeObject, now: string): void;
  /** Fields an update may not change, restored from the old object. */
  prepareForUpdate?(object: KubeObject, old: KubeObject): void;
  validate?(object: KubeObject, old: KubeObject | undefined): FieldError[];
  /**
   * For kinds with a `metadata.generation`: the part of the object it follows (the spec). Kinds
   * without one (ConfigMaps, Secrets, Pods, ...) leave it out.
   */
  generation?: (object: KubeObject) => unknown;
  /** Whether deleting must wait (a namespace for its content), beyond metadata.finalizers. */
  waitsOnDelete?(object: KubeObject): boolean;
}
