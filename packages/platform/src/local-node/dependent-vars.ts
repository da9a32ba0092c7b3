/**
 * Kubernetes' dependent variable expansion (k8s.io/kubernetes third_party/forked/golang/expansion),
 * as the kubelet applies it to env values and args. Pure.
 *
 * - `$(NAME)` is replaced by the value of NAME when `lookup` knows it;
 * - `$$` is an escaped `$`: `$$(NAME)` yields `$(NAME)` unexpanded;
 * - a reference to an unknown name, an unclosed `$(`, or `$` before any other character is left
 *   as written.
 */
export function expandVariables(
  input: string,
  lookup: (name: string) => string | undefined,
): string {
  let out = '';
  let checkpoint = 0;
  for (let cursor = 0; cursor < input.length; cursor++) {
    if (input[cursor] !== '$' || cursor + 1 >= input.length) continue;
    out += input.slice(checkpoint, cursor);
    const { read, advance, isVariable } = tryReadVariable(input.slice(cursor + 1));
    if (isVariable) {
      const value = lookup(read);
      out += value ?? `$(${read})`;
    } else {
      out += read;
    }
    cursor += advance;
    checkpoint = cursor + 1;
  }
  return out + input.slice(checkpoint);
}

/** After a `$`: an escaped `$`, a `(NAME)` reference, or text kept as written. */
function tryReadVariable(rest: string): { read: string; advance: number; isVariable: boolean } {
  if (rest[0] === '$') return { read: '$', advance: 1, isVariable: false };
  if (rest[0] === '(') {
    const close = rest.indexOf(')', 1);
    // An unclosed reference keeps its `$(`; what follows is read on as usual.
    if (close === -1) return { read: '$(', advance: 1, isVariable: false };
    return { read: rest.slice(1, close), advance: close + 1, isVariable: true };
  }
  return { read: `$${rest[0]}`, advance: 1, isVariable: false };
}

/** One env variable before expansion; only literal values expand, as the kubelet does. */
export interface EnvEntry {
  name: string;
  value: string;
  /** False for values from the downward API, Secrets and ConfigMaps: taken as they are. */
  expand: boolean;
}

/**
 * Expands each literal env value against the variables defined before it, in order, as the
 * kubelet does: a later variable is not visible to an earlier one, and a name defined twice takes
 * its last value. Pure.
 */
export function expandEnv(
  env: readonly EnvEntry[],
  /** Variables every value may name before its own (the kubelet's service variables). */
  base: readonly (readonly [string, string])[] = [],
): [string, string][] {
  const seen = new Map<string, string>(base);
  const out: [string, string][] = [];
  for (const { name, value: raw, expand } of env) {
    const value = expand ? expandVariables(raw, (ref) => seen.get(ref)) : raw;
    seen.set(name, value);
    out.push([name, value]);
  }
  return out;
}

/** Args expanded against the container's final environment. Pure. */
export function expandArgs(
  args: readonly string[],
  env: readonly (readonly [string, string])[],
): string[] {
  const vars = new Map(env);
  return args.map((arg) => expandVariables(arg, (ref) => vars.get(ref)));
}
