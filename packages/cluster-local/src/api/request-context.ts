import type { KubeObject, UserInfo } from '../contracts.js';

/** Who asks, and how: what every write operation is given. */
export interface RequestContext {
  user: UserInfo;
  /** Milliseconds since the epoch (a test may move the clock). */
  now: number;
  /** `dryRun=All`: everything but the write. */
  dryRun: boolean;
  /** The `fieldManager` query parameter (server-side apply requires one). */
  fieldManager?: string;
  /** The client's User-Agent, which names the field manager when `fieldManager` does not. */
  userAgent?: string;
  /** `force=true` for server-side apply. */
  force?: boolean;
  /** `fieldValidation=Strict`: unknown fields are an error, not pruned. */
  strictFields?: boolean;
  /**
   * With strictFields, for a built-in kind: the fields of the object its schema does not declare
   * (a custom kind's come from its CRD's schema).
   */
  unknownBuiltinFields?: (object: KubeObject) => string[] | undefined;
}
