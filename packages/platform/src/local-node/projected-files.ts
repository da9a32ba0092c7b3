import { posix } from 'node:path';
import { fieldValue, type NodeFacts } from './container-env.js';
import type { KeyToPath, Pod, Volume } from './pod.js';

/**
 * What a projected volume holds, as the kubelet's projected volume plugin makes it: a
 * ServiceAccount token, keys of ConfigMaps and Secrets, and downward API fields, each as a file.
 * Pure: the objects and tokens are read beforehand (see `projectionReads`).
 */

/** The TokenRequest API's own bounds and default, in seconds. */
export const DEFAULT_TOKEN_SECONDS = 3600;
export const MIN_TOKEN_SECONDS = 600;
/** The kubelet renews a token once 80% of its lifetime has passed, or after a day at most. */
export const TOKEN_REFRESH_FRACTION = 0.8;
export const MAX_TOKEN_AGE_MS = 24 * 60 * 60 * 1000;

/** The ServiceAccount a pod's tokens are for. */
export const serviceAccountOf = (pod: Pod) => pod.spec.serviceAccountName || 'default';

/** One token a projected volume asks for. */
export interface TokenWanted {
  /** Undefined: the API server's own audience. */
  audience?: string;
  expirationSeconds: number;
}

/** What to read before making the volume's files: names of objects, and tokens, in source order. */
export interface ProjectionReads {
  configMaps: string[];
  secrets: string[];
  tokens: TokenWanted[];
}

export function projectionReads(volume: Volume): ProjectionReads {
  const reads: ProjectionReads = { configMaps: [], secrets: [], tokens: [] };
  for (const source of volume.projected?.sources ?? []) {
    if (source.configMap) reads.configMaps.push(source.configMap.name);
    if (source.secret) reads.secrets.push(source.secret.name);
    const token = source.serviceAccountToken;
    if (token) {
      reads.tokens.push({
        ...(token.audience ? { audience: token.audience } : {}),
        expirationSeconds: Math.max(
          MIN_TOKEN_SECONDS,
          token.expirationSeconds ?? DEFAULT_TOKEN_SECONDS,
        ),
      });
    }
  }
  return reads;
}

/** What was read: each object's keys as bytes (undefined: it does not exist), tokens in order. */
export interface ProjectionInputs {
  configMaps: ReadonlyMap<string, Readonly<Record<string, Buffer>> | undefined>;
  secrets: ReadonlyMap<string, Readonly<Record<string, Buffer>> | undefined>;
  tokens: readonly string[];
}

export interface ProjectedFile {
  /** Relative to the volume's folder. */
  path: string;
  content: Buffer;
}

export type ProjectedResult = { ok: true; files: ProjectedFile[] } | { ok: false; message: string };

/** A file's path in a volume: relative, without `..`, as the API server requires. */
const isRelativePath = (path: string) =>
  path !== '' &&
  !posix.isAbsolute(path) &&
  !path.split('/').some((part) => part === '..' || part === '');

/**
 * A labels or annotations map as a downward API file: `key="value"` lines sorted by key, the
 * value quoted (the kubelet's fieldpath.FormatMap; JSON quoting stands in for Go's %q, the same
 * for printable text).
 */
export function formatMap(map: Readonly<Record<string, string>> | undefined): string {
  return Object.keys(map ?? {})
    .sort()
    .map((key) => `${key}=${JSON.stringify(map![key])}`)
    .join('\n');
}

/** A downward API file's content, or undefined for a field this node does not serve. */
function downwardValue(pod: Pod, fieldPath: string, node: NodeFacts): string | undefined {
  if (fieldPath === 'metadata.labels') return formatMap(pod.metadata.labels);
  if (fieldPath === 'metadata.annotations') return formatMap(pod.metadata.annotations);
  return fieldValue(pod, fieldPath, node);
}

/** Keys of an object as files: the items given (each must exist unless optional), or every key. */
function keyFiles(
  kind: 'configmap' | 'secret',
  source: { name: string; items?: KeyToPath[]; optional?: boolean },
  data: Readonly<Record<string, Buffer>> | undefined,
): ProjectedResult {
  if (data === undefined) {
    return source.optional
      ? { ok: true, files: [] }
      : { ok: false, message: `${kind} "${source.name}" not found` };
  }
  const items = source.items ?? Object.keys(data).map((key) => ({ key, path: key }));
  const files: ProjectedFile[] = [];
  for (const item of items) {
    const content = data[item.key];
    if (content === undefined) {
      if (source.optional) continue;
      return {
        ok: false,
        message: `configured to use key ${item.key} of ${kind} "${source.name}", which does not exist`,
      };
    }
    files.push({ path: item.path, content });
  }
  return { ok: true, files };
}

/**
 * The volume's files, in source order (a later path replaces an earlier one). The first problem
 * (a missing object that is not optional, a path out of the volume, a field not served) is the
 * whole answer, worded for the container's waiting message.
 */
export function projectedFiles(
  pod: Pod,
  volume: Volume,
  inputs: ProjectionInputs,
  node: NodeFacts,
): ProjectedResult {
  const files = new Map<string, Buffer>();
  let token = 0;
  for (const source of volume.projected?.sources ?? []) {
    let found: ProjectedResult = { ok: true, files: [] };
    if (source.serviceAccountToken) {
      const value = inputs.tokens[token++];
      if (value === undefined) return { ok: false, message: 'no token was issued' };
      found = {
        ok: true,
        files: [{ path: source.serviceAccountToken.path, content: Buffer.from(value) }],
      };
    } else if (source.configMap) {
      found = keyFiles('configmap', source.configMap, inputs.configMaps.get(source.configMap.name));
    } else if (source.secret) {
      found = keyFiles('secret', source.secret, inputs.secrets.get(source.secret.name));
    } else if (source.downwardAPI) {
      const items: ProjectedFile[] = [];
      for (const item of source.downwardAPI.items ?? []) {
        const fieldPath = item.fieldRef?.fieldPath;
        const value = fieldPath === undefined ? undefined : downwardValue(pod, fieldPath, node);
        if (value === undefined) {
          return {
            ok: false,
            message: `downwardAPI ${item.path}: ${fieldPath === undefined ? 'only fieldRef items are served here' : `unsupported fieldPath: ${fieldPath}`}`,
          };
        }
        items.push({ path: item.path, content: Buffer.from(value) });
      }
      found = { ok: true, files: items };
    } else {
      return { ok: false, message: 'a projected source of a kind this node does not serve' };
    }
    if (!found.ok) return found;
    for (const file of found.files) {
      if (!isRelativePath(file.path)) {
        return { ok: false, message: `invalid path ${file.path}: must be relative, without ".."` };
      }
      files.set(file.path, file.content);
    }
  }
  return { ok: true, files: [...files].map(([path, content]) => ({ path, content })) };
}

/** How long after a token was received to renew it (the kubelet's rule). Pure. */
export function tokenRefreshDelayMs(expirationSeconds: number): number {
  return Math.min(expirationSeconds * 1000 * TOKEN_REFRESH_FRACTION, MAX_TOKEN_AGE_MS);
}
