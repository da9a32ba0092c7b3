import type { Logger } from '@paddock/common';
import type { Resources } from '../api/resources.js';
import type { RbacSource, TokenAuthority } from '../contracts.js';
import type { Registry } from '../registry/registry.js';
import type { PodLogs } from '../storage/pod-logs.js';
import type { Store } from '../storage/store.js';
import type { Authenticator } from './authentication.js';
import type { Authorizer } from './reviews.js';

/** What the HTTP layer works with. */
export interface ServerDeps {
  store: Store;
  registry: Registry;
  resources: Resources;
  logs: PodLogs;
  tokens: TokenAuthority;
  authenticate: Authenticator;
  authorize: Authorizer;
  rbac: RbacSource;
  now: () => number;
  logger: Logger;
  bookmarkIntervalMs: number;
  /** A watch without timeoutSeconds ends after between this and twice this. */
  watchTimeoutMs: number;
  /** The open watches' end functions, for shutdown. */
  watches: Set<() => void>;
  /**
   * The start-up steps that still run after the port is bound (writing the kubeconfig): /readyz
   * names them and fails until the set is empty, as kube-apiserver's post-start hooks do.
   */
  pendingStart: ReadonlySet<string>;
}
