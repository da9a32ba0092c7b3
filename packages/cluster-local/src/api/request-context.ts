import type { UserInfo } from '../contracts.js';

/** Who asks, and how: what every write operation is given. */
export interface RequestContext {
  user: UserInfo;
  /** Milliseconds since the epoch (a test may move the clock). */
  now: number;
  /** `dryRun=All`: everything but the write. */
  dryRun: boolean;
  /** The `fieldManager` query parameter (server-side apply requires one). */
  fieldManager?: string;
  /** `force=true` for server-side apply. */
  force?: boolean;
  /** `fieldValidation=Strict`: unknown fields of a custom resource are an error, not pruned. */
  strictFields?: boolean;
}
