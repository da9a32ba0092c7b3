/** What a list's continue token carries: where the list was taken and where the next page starts. */
export interface ContinueToken {
  resourceVersion: number;
  /** The `namespace/name` key of the first object of the next page. */
  start: string;
}

/** Kubernetes' shape: base64 of `{"v":"meta.k8s.io/v1","rv":…,"start":…}`. */
export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(
    JSON.stringify({ v: 'meta.k8s.io/v1', rv: token.resourceVersion, start: token.start }),
  ).toString('base64url');
}

export function decodeContinue(text: string): ContinueToken | undefined {
  try {
    const raw = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    if (
      raw['v'] !== 'meta.k8s.io/v1' ||
      typeof raw['rv'] !== 'number' ||
      typeof raw['start'] !== 'string'
    ) {
      return undefined;
    }
    return { resourceVersion: raw['rv'], start: raw['start'] };
  } catch {
    return undefined;
  }
}
