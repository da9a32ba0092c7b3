import type { Kube, Workspace, WorkspaceRole } from '@paddock/kube';
import { DashboardError } from '../errors.js';

/** Lifetime asked for a workspace token, and how long before its end it is replaced. */
export const TOKEN_SECONDS = 600;
export const RENEW_BEFORE_MS = 120_000;

interface Minted {
  kube: Kube;
  expiresAt: number;
}

/**
 * The cluster as the workspace ServiceAccount of a role sees it: a short-lived token minted with
 * the TokenRequest API, cached per workspace and role and replaced before it expires. When no
 * token can be minted the request fails; it never falls back to the dashboard's own identity.
 */
export class WorkspaceTokens {
  private readonly minted = new Map<string, Minted>();
  private readonly pending = new Map<string, Promise<Minted>>();

  constructor(
    private readonly kube: Kube,
    private readonly now: () => number = Date.now,
  ) {}

  async clientFor(workspace: Workspace, role: WorkspaceRole): Promise<Kube> {
    const namespace = workspace.spec.namespace.name;
    const account = workspace.status?.serviceAccounts?.[role];
    if (account === undefined || account === '') {
      throw new DashboardError(
        'unavailable',
        `workspace ${workspace.metadata.name} is not ready: its ${role} ServiceAccount does not exist yet`,
      );
    }
    // The uid keeps a re-created workspace of the same name from reusing the old one's tokens.
    const key = `${workspace.metadata.uid ?? ''}/${namespace}/${account}`;
    const cached = this.minted.get(key);
    if (cached !== undefined && cached.expiresAt - RENEW_BEFORE_MS > this.now()) return cached.kube;
    let minting = this.pending.get(key);
    if (minting === undefined) {
      minting = this.mint(namespace, account).finally(() => this.pending.delete(key));
      this.pending.set(key, minting);
    }
    const fresh = await minting;
    this.minted.set(key, fresh);
    return fresh.kube;
  }

  private async mint(namespace: string, account: string): Promise<Minted> {
    try {
      const answer = await this.kube.requestToken(namespace, account, {
        expirationSeconds: TOKEN_SECONDS,
      });
      const expiresAt = Date.parse(answer.expirationTimestamp);
      return {
        kube: this.kube.as(answer.token),
        expiresAt: Number.isNaN(expiresAt) ? this.now() + TOKEN_SECONDS * 1000 : expiresAt,
      };
    } catch (err) {
      throw new DashboardError(
        'unavailable',
        `no token could be minted for the workspace's ServiceAccount ${namespace}/${account}: ${
          err instanceof Error ? err.message : String(err)
        }`,
      );
    }
  }
}
