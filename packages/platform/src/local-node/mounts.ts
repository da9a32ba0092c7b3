import { join, posix } from 'node:path';
import type { Container, Pod } from './pod.js';

/**
 * Where a pod's volumes live on this machine and how its container sees them. A process cannot
 * mount folders, so the container's paths are rewritten instead: an arg or env value that is a
 * mount path, or starts with one and a `/`, names the volume's folder. Pure.
 */

/** A claim's folder: kept across pods and restarts, removed with the claim. */
export function claimFolder(dataDir: string, namespace: string, claim: string): string {
  return join(dataDir, 'volumes', namespace, claim);
}

/** The folder of a pod's own volumes (emptyDir): removed with the pod. */
export function podFolder(dataDir: string, uid: string): string {
  return join(dataDir, 'pods', uid);
}

/**
 * The folder a projected volume's files are written to for one mount path: under the volume's
 * root the whole mount path, so that the root stands for the container's `/` (a client's
 * `loadFromCluster(root)` finds `<root>/var/run/secrets/kubernetes.io/serviceaccount/token`).
 */
export function projectedFolder(
  dataDir: string,
  uid: string,
  volume: string,
  mountPath: string,
): string {
  return join(podFolder(dataDir, uid), PROJECTED_DIR, volume, mountPath);
}

/** Where a pod's projected volumes go in its folder: a name no volume (a DNS label) can have. */
const PROJECTED_DIR = '.projected';

export interface HostMount {
  /** The path inside the container. */
  mountPath: string;
  /** The folder on this machine. */
  hostPath: string;
  /** Set for a claim's folder: the claim's name (in the pod's namespace). */
  claim?: string;
  /** Set for a projected volume's folder: the volume's name (its files are written there). */
  projected?: string;
}

export type MountsResult = { ok: true; mounts: HostMount[] } | { ok: false; message: string };

/** A name used as one path segment: what the API server admits, never `..` or a slash. */
const isSegment = (name: string) =>
  name !== '' && name !== '.' && name !== '..' && !/[/\\]/.test(name);

/**
 * The container's mounts as folders: a persistentVolumeClaim is its claim's folder, an emptyDir a
 * folder of the pod's, a projected volume a folder of the pod's per mount path. Any other volume kind, or a mount of a volume the pod lacks, is a problem
 * worded for the container's waiting message. Longest mount path first, so nested mounts win.
 */
export function containerMounts(pod: Pod, container: Container, dataDir: string): MountsResult {
  const namespace = pod.metadata.namespace ?? 'default';
  const uid = pod.metadata.uid ?? pod.metadata.name;
  const mounts: HostMount[] = [];
  for (const mount of container.volumeMounts ?? []) {
    const volume = pod.spec.volumes?.find((v) => v.name === mount.name);
    if (volume === undefined) {
      return { ok: false, message: `volume "${mount.name}" is mounted but not defined` };
    }
    if (!isSegment(volume.name))
      return { ok: false, message: `invalid volume name ${volume.name}` };
    const sub = mount.subPath ?? '';
    const mountPath = posix.normalize(mount.mountPath).replace(/(.)\/+$/, '$1');
    if (volume.projected) {
      if (sub !== '') {
        return {
          ok: false,
          message: `volume "${volume.name}": a subPath of a projected volume is not served here`,
        };
      }
      if (!posix.isAbsolute(mountPath)) {
        return { ok: false, message: `invalid mountPath ${mount.mountPath}: must be absolute` };
      }
      mounts.push({
        mountPath,
        hostPath: projectedFolder(dataDir, uid, volume.name, mountPath),
        projected: volume.name,
      });
      continue;
    }
    let folder: string;
    let claim: string | undefined;
    if (volume.persistentVolumeClaim) {
      const name = volume.persistentVolumeClaim.claimName;
      if (!isSegment(name) || !isSegment(namespace)) {
        return { ok: false, message: `invalid claim name ${name}` };
      }
      folder = claimFolder(dataDir, namespace, name);
      claim = name;
    } else if (volume.emptyDir) {
      folder = join(podFolder(dataDir, uid), volume.name);
    } else {
      return {
        ok: false,
        message: `volume "${volume.name}": this node serves only persistentVolumeClaim, emptyDir and projected volumes`,
      };
    }
    if (sub !== '' && (posix.isAbsolute(sub) || sub.split('/').includes('..'))) {
      return { ok: false, message: `invalid subPath ${sub}: must be relative, without ".."` };
    }
    mounts.push({
      mountPath,
      hostPath: sub === '' ? folder : join(folder, sub),
      ...(claim === undefined ? {} : { claim }),
    });
  }
  mounts.sort((a, b) => b.mountPath.length - a.mountPath.length);
  return { ok: true, mounts };
}

/** A container path as this machine's path: rewritten when it is or lies under a mount. */
export function hostPathOf(text: string, mounts: readonly HostMount[]): string {
  for (const { mountPath, hostPath } of mounts) {
    if (text === mountPath) return hostPath;
    const prefix = mountPath === '/' ? '/' : `${mountPath}/`;
    // Appended as written, not normalized: the same path the container would have named.
    if (text.startsWith(prefix)) return `${hostPath}/${text.slice(prefix.length)}`;
  }
  return text;
}

/** TMPDIR for the process: the folder mounted at /tmp, when there is one. */
export function tmpDirOf(mounts: readonly HostMount[]): string | undefined {
  return mounts.find((m) => m.mountPath === '/tmp')?.hostPath;
}
