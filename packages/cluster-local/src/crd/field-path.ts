/**
 * Field paths in Kubernetes' style (its field.Path): `spec.handlers[0].tool` for properties and list
 * items, `spec.labels[team]` for map entries. The root is the empty path.
 */

export function childPath(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

export function indexPath(path: string, index: number): string {
  return `${path}[${index}]`;
}

export function keyPath(path: string, key: string): string {
  return `${path}[${key}]`;
}

/**
 * The path a JSON pointer (as ajv reports it) names in `data`: array positions become indexes and
 * everything else a property, as the OpenAPI validator Kubernetes uses writes them.
 */
export function pointerPath(pointer: string, data: unknown): string {
  let path = '';
  let node = data;
  for (const token of pointer.split('/').slice(1)) {
    const name = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) {
      path = indexPath(path, Number(name));
      node = node[Number(name)];
    } else {
      path = childPath(path, name);
      node =
        typeof node === 'object' && node !== null
          ? (node as Record<string, unknown>)[name]
          : undefined;
    }
  }
  return path;
}

/**
 * The path a rule's `fieldPath` (`.spec.name`, `['a.b']`) names below `path`, or undefined when it is
 * not one Kubernetes accepts (list indexes are not).
 */
export function ruleFieldPath(path: string, fieldPath: string): string | undefined {
  const token = /\.([A-Za-z_][A-Za-z0-9_-]*)|\['((?:[^'\\]|\\.)*)'\]/y;
  let result = path;
  let position = 0;
  while (position < fieldPath.length) {
    token.lastIndex = position;
    const match = token.exec(fieldPath);
    if (!match) return undefined;
    result = childPath(result, match[1] ?? (match[2] ?? '').replace(/\\(.)/g, '$1'));
    position = token.lastIndex;
  }
  return position === 0 ? undefined : result;
}
