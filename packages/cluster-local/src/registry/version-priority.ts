/**
 * Kubernetes' ordering of API versions (CompareKubeAwareVersionStrings): GA before beta before
 * alpha, higher numbers first, anything not shaped like a Kubernetes version last, alphabetically.
 */
export function compareVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  if (!pa || !pb) {
    if (pa) return -1;
    if (pb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (pa.stability !== pb.stability) return pb.stability - pa.stability;
  if (pa.major !== pb.major) return pb.major - pa.major;
  return pb.minor - pa.minor;
}

function parse(version: string): { major: number; stability: number; minor: number } | undefined {
  const match = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(version);
  if (!match) return undefined;
  const stability = match[2] === undefined ? 2 : match[2] === 'beta' ? 1 : 0;
  return { major: Number(match[1]), stability, minor: Number(match[3] ?? 0) };
}
