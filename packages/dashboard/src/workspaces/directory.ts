import { Informer, KINDS, type Kube, type Workspace, type WorkspaceRole } from '@paddock/kube';
import {
  anonymousRole,
  grantKey,
  prepare,
  roleOfPrepared,
  type PreparedSubject,
  type Subject,
} from './access.js';

const workspaceKind = KINDS.find((kind) => kind.kind === 'Workspace')!;

export interface Accessible {
  workspace: Workspace;
  role: WorkspaceRole;
}

/** Where a workspace may grant access: the keys it is indexed under. */
interface Keys {
  groups: string[];
  users: string[];
  anonymous: boolean;
}

function keysOf(workspace: Workspace): Keys {
  return {
    groups: (workspace.spec.roleBindings ?? []).flatMap((binding) => binding.groups ?? []),
    users: (workspace.spec.directGrants ?? []).map((grant) => grantKey(grant.user)),
    anonymous: anonymousRole(workspace) !== undefined,
  };
}

function addTo(index: Map<string, Set<string>>, key: string, name: string) {
  let names = index.get(key);
  if (names === undefined) index.set(key, (names = new Set()));
  names.add(name);
}

function removeFrom(index: Map<string, Set<string>>, key: string, name: string) {
  const names = index.get(key);
  names?.delete(name);
  if (names?.size === 0) index.delete(key);
}

/**
 * Every Workspace, kept current by a watch, indexed by the groups and users that may reach it so
 * that a user's workspaces are found without reading them all. The index only narrows the
 * candidates: each one's role is decided by workspaceRoleOf, at the request's time, so an
 * expired grant stops counting the moment it expires.
 */
export class WorkspaceDirectory {
  private readonly informer: Informer<Workspace>;
  private readonly byGroup = new Map<string, Set<string>>();
  private readonly byUser = new Map<string, Set<string>>();
  private readonly anonymous = new Set<string>();
  private readonly indexed = new Map<string, Keys>();

  constructor(kube: Kube, onError: (err: unknown) => void) {
    this.informer = new Informer<Workspace>(kube.resource<Workspace>(workspaceKind), {}, onError);
    this.informer.on((event, workspace) => {
      const name = workspace.metadata.name;
      this.unindex(name);
      if (event !== 'delete') this.index(workspace);
    });
  }

  /** Resolves once the first list is in. */
  get synced(): Promise<void> {
    return this.informer.synced;
  }

  /** Whether the first list is in (readiness). */
  isSynced = false;

  start(): this {
    void this.informer.synced.then(() => (this.isSynced = true));
    this.informer.start();
    return this;
  }

  stop(): void {
    this.informer.stop();
  }

  get size(): number {
    return this.indexed.size;
  }

  /** The workspace and the subject's role in it, or undefined when it has none or none exists. */
  find(name: string, subject: Subject, now: Date): Accessible | undefined {
    return this.decide(name, prepare(subject), now);
  }

  /** The workspaces the subject holds a role in, sorted by name. */
  accessible(subject: Subject, now: Date): Accessible[] {
    const prepared = prepare(subject);
    const candidates = new Set(this.anonymous);
    if (!prepared.anonymous) {
      for (const group of prepared.groups) {
        for (const name of this.byGroup.get(group) ?? []) candidates.add(name);
      }
      for (const user of prepared.names) {
        for (const name of this.byUser.get(user) ?? []) candidates.add(name);
      }
    }
    const found: Accessible[] = [];
    for (const name of [...candidates].sort()) {
      const entry = this.decide(name, prepared, now);
      if (entry !== undefined) found.push(entry);
    }
    return found;
  }

  /** The workspace whose namespace is `namespace`, if one is. */
  holderOf(namespace: string): string | undefined {
    return this.informer.list().find((w) => w.spec.namespace.name === namespace)?.metadata.name;
  }

  /**
   * Resolves once the watch has brought `workspace` (the same object, by uid) into the directory,
   * so that the requests that follow its creation find it; or after `timeoutMs` regardless.
   */
  async whenPresent(workspace: Workspace, timeoutMs: number): Promise<void> {
    const here = () =>
      this.informer.get(workspace.metadata.name)?.metadata.uid === workspace.metadata.uid;
    if (here()) return;
    let stop = () => {};
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      const off = this.informer.on(() => {
        if (here()) resolve();
      });
      stop = () => {
        clearTimeout(timer);
        off();
      };
      // Between the first look and the subscription.
      if (here()) resolve();
    });
    stop();
  }

  private decide(name: string, subject: PreparedSubject, now: Date): Accessible | undefined {
    const workspace = this.informer.get(name);
    if (workspace === undefined) return undefined;
    const role = roleOfPrepared(workspace, subject, now);
    return role === undefined ? undefined : { workspace, role };
  }

  private index(workspace: Workspace) {
    const name = workspace.metadata.name;
    const keys = keysOf(workspace);
    for (const group of keys.groups) addTo(this.byGroup, group, name);
    for (const user of keys.users) addTo(this.byUser, user, name);
    if (keys.anonymous) this.anonymous.add(name);
    this.indexed.set(name, keys);
  }

  private unindex(name: string) {
    const keys = this.indexed.get(name);
    if (keys === undefined) return;
    for (const group of keys.groups) removeFrom(this.byGroup, group, name);
    for (const user of keys.users) removeFrom(this.byUser, user, name);
    this.anonymous.delete(name);
    this.indexed.delete(name);
  }
}
