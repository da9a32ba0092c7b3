import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Logger } from '@paddock/common';
import { CORE_KINDS, NotFoundError, resourcePath, type Kube, type KubeObject } from '@paddock/kube';
import type { NodeFacts } from './container-env.js';
import { KeyedSerializer } from './keyed-serializer.js';
import { containerMounts } from './mounts.js';
import type { NodeClock } from './node-clock.js';
import type { Pod, Volume } from './pod.js';
import {
  projectedFiles,
  projectionReads,
  serviceAccountOf,
  tokenRefreshDelayMs,
  type ProjectedFile,
  type ProjectionInputs,
} from './projected-files.js';

/** After a failed renewal, the next try (the token in place is still valid for a fifth of its life). */
export const TOKEN_RETRY_MS = 10_000;
/** Files are readable by the pod's processes only (they run as the node's user). */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

/** Why a projected volume cannot be made yet: the container waits with this message. */
export class ProjectionError extends Error {}

export interface ProjectedVolumesDeps {
  kube: Kube;
  dataDir: string;
  clock: NodeClock;
  logger: Logger;
  /** What the downward API reads that only the node knows. */
  node: NodeFacts;
}

/**
 * Writes each file under the folder as the kubelet's AtomicWriter publishes a volume: a reader
 * sees the old content or the new, never part of either (written beside, then renamed over).
 */
export async function writeFilesAtomically(
  folder: string,
  files: readonly ProjectedFile[],
): Promise<void> {
  for (const file of files) {
    const target = join(folder, file.path);
    await mkdir(dirname(target), { recursive: true, mode: FOLDER_MODE });
    const partial = join(
      dirname(target),
      `..${basename(target)}.${randomBytes(6).toString('hex')}.tmp`,
    );
    try {
      await writeFile(partial, file.content, { mode: FILE_MODE });
      await rename(partial, target);
    } finally {
      await rm(partial, { force: true });
    }
  }
}

/**
 * A pod's projected volumes, as the kubelet's projected volume plugin keeps them: each written
 * into the folders of its mounts before a container that mounts it starts, and written again
 * (a fresh token, the objects as they are now) once 80% of its tokens' lifetime has passed.
 */
export class ProjectedVolumes {
  /** The folders of each projected volume: one per mount path any container mounts it at. */
  private readonly folders = new Map<string, string[]>();
  private readonly written = new Set<string>();
  private readonly timers = new Map<string, () => void>();
  private readonly serial = new KeyedSerializer();
  private stopped = false;

  constructor(
    private readonly pod: Pod,
    private readonly deps: ProjectedVolumesDeps,
  ) {
    for (const container of pod.spec.containers) {
      const mounts = containerMounts(pod, container, deps.dataDir);
      if (!mounts.ok) continue;
      for (const { projected, hostPath } of mounts.mounts) {
        if (projected === undefined) continue;
        const list = this.folders.get(projected) ?? [];
        if (!list.includes(hostPath)) list.push(hostPath);
        this.folders.set(projected, list);
      }
    }
  }

  private get namespace(): string {
    return this.pod.metadata.namespace ?? 'default';
  }

  /**
   * Resolves once the volume's files are in place (at once when they already are); a
   * ProjectionError says what is missing.
   */
  ensure(volume: string): Promise<void> {
    return this.serial.run(volume, async () => {
      if (this.written.has(volume) || this.stopped) return;
      await this.write(volume);
      this.written.add(volume);
    });
  }

  /** Ends the renewals; resolves once no write is under way (the pod's folder may go then). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
    await this.serial.idle();
  }

  /** Reads the sources, writes the files, and schedules the next renewal when there are tokens. */
  private async write(name: string): Promise<void> {
    const volume = this.pod.spec.volumes?.find((v) => v.name === name);
    if (volume?.projected === undefined)
      throw new ProjectionError(`volume "${name}" is not projected`);
    const inputs = await this.read(volume);
    const result = projectedFiles(this.pod, volume, inputs.values, this.deps.node);
    if (!result.ok) throw new ProjectionError(this.setUpFailed(name, result.message));
    for (const folder of this.folders.get(name) ?? []) {
      await writeFilesAtomically(folder, result.files);
    }
    if (inputs.refreshInMs !== undefined) this.schedule(name, inputs.refreshInMs);
  }

  private schedule(name: string, ms: number): void {
    this.timers.get(name)?.();
    if (this.stopped) return;
    this.timers.set(
      name,
      this.deps.clock.setTimer(ms, () => void this.renew(name)),
    );
  }

  private async renew(name: string): Promise<void> {
    this.timers.delete(name);
    try {
      await this.serial.run(name, async () => {
        if (!this.stopped) await this.write(name);
      });
      this.deps.logger.debug({ volume: name }, 'projected volume renewed');
    } catch (err) {
      this.deps.logger.warn(
        { err, volume: name, retryInMs: TOKEN_RETRY_MS },
        'could not renew a projected volume',
      );
      this.schedule(name, TOKEN_RETRY_MS);
    }
  }

  private setUpFailed(volume: string, message: string): string {
    return `MountVolume.SetUp failed for volume "${volume}" : ${message}`;
  }

  /** The objects and tokens the volume names, and when its tokens are to be renewed. */
  private async read(
    volume: Volume,
  ): Promise<{ values: ProjectionInputs; refreshInMs: number | undefined }> {
    const reads = projectionReads(volume);
    const object = async (kind: 'configMap' | 'secret', name: string) => {
      try {
        const found = await this.deps.kube
          .resource<
            KubeObject & { data?: Record<string, string>; binaryData?: Record<string, string> }
          >(CORE_KINDS[kind])
          .get(name, this.namespace);
        const keys: Record<string, Buffer> = {};
        // Secret values and ConfigMaps' binaryData are base64 on the wire; ConfigMaps' data text.
        for (const [key, value] of Object.entries(found.data ?? {})) {
          keys[key] = Buffer.from(value, kind === 'secret' ? 'base64' : 'utf8');
        }
        for (const [key, value] of Object.entries(found.binaryData ?? {})) {
          keys[key] = Buffer.from(value, 'base64');
        }
        return keys;
      } catch (err) {
        if (err instanceof NotFoundError) return undefined;
        throw new ProjectionError(this.setUpFailed(volume.name, (err as Error).message));
      }
    };
    const tokens: string[] = [];
    let refreshInMs: number | undefined;
    for (const wanted of reads.tokens) {
      const issued = await this.requestToken(volume.name, wanted);
      tokens.push(issued.token);
      const delay = tokenRefreshDelayMs(issued.expirationSeconds);
      refreshInMs = Math.min(refreshInMs ?? delay, delay);
    }
    const named = async (kind: 'configMap' | 'secret', names: string[]) =>
      new Map(await Promise.all(names.map(async (n) => [n, await object(kind, n)] as const)));
    return {
      values: {
        configMaps: await named('configMap', reads.configMaps),
        secrets: await named('secret', reads.secrets),
        tokens,
      },
      refreshInMs,
    };
  }

  /** TokenRequest for the pod's ServiceAccount, bound to the pod. */
  private async requestToken(
    volume: string,
    wanted: { audience?: string; expirationSeconds: number },
  ): Promise<{ token: string; expirationSeconds: number }> {
    const account = serviceAccountOf(this.pod);
    const { name, uid = '' } = this.pod.metadata;
    const spec = {
      ...(wanted.audience === undefined ? {} : { audiences: [wanted.audience] }),
      expirationSeconds: wanted.expirationSeconds,
      boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name, uid },
    };
    try {
      const answer = await this.deps.kube.rest.request<{
        spec?: { expirationSeconds?: number };
        status: { token: string };
      }>(
        'POST',
        resourcePath(CORE_KINDS.serviceAccount, {
          namespace: this.namespace,
          name: account,
          subresource: 'token',
        }),
        { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec } },
      );
      return {
        token: answer.status.token,
        expirationSeconds: answer.spec?.expirationSeconds ?? wanted.expirationSeconds,
      };
    } catch (err) {
      const why =
        err instanceof NotFoundError
          ? `serviceaccounts "${account}" not found`
          : (err as Error).message;
      throw new ProjectionError(this.setUpFailed(volume, `failed to fetch token: ${why}`));
    }
  }
}
