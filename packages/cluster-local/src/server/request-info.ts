import { parseFieldSelector, requiredFieldValue } from '../query/field-selector.js';
import { SelectorError } from '../query/label-selector.js';
import { queryFlag } from '../query/query-boolean.js';

/** What a request is about, as Kubernetes' RequestInfoFactory reads it from the method and path. */
export type RequestInfo =
  | { isResource: false; path: string; verb: string }
  | {
      isResource: true;
      path: string;
      group: string;
      version: string;
      /** '' for cluster-scoped requests and lists across namespaces. */
      namespace: string;
      resource: string;
      /** The name RBAC sees: the path's, or the one a list's field selector requires. */
      name: string;
      /** The name in the path only. */
      pathName: string;
      subresource: string;
      verb: string;
    };

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);
const VERBS: Record<string, string> = {
  GET: 'get',
  HEAD: 'get',
  POST: 'create',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/** Parses a request; `query` decides list versus watch and a watch narrowed to one name. */
export function requestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const nonResource = {
    isResource: false as const,
    path,
    verb: method.toLowerCase() === 'head' ? 'get' : method.toLowerCase(),
  };
  const parts = path
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  let rest: string[];
  let group = '';
  let version: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return nonResource;
  }
  let verb = VERBS[method.toUpperCase()] ?? method.toLowerCase();
  if (rest[0] === 'watch') {
    verb = 'watch';
    rest = rest.slice(1);
  }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1]!;
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) rest = rest.slice(2);
  }
  const resource = rest[0] ?? '';
  const pathName = rest[1] ?? '';
  let name = pathName;
  const subresource = rest[2] ?? '';
  if (rest.length > 3) return nonResource;
  if (name === '' && verb === 'get') {
    verb = queryFlag(query, 'watch') ? 'watch' : 'list';
  }
  if (name === '' && (verb === 'list' || verb === 'watch')) {
    name = selectedName(query.get('fieldSelector') ?? '');
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';
  return {
    isResource: true,
    path,
    group,
    version,
    namespace,
    resource,
    name,
    pathName,
    subresource,
    verb,
  };
}

/**
 * The one name a list or watch is narrowed to, as Kubernetes' RequestInfoFactory reads it: the value
 * a `metadata.name=` term of the field selector requires, parsed by the same parser the store
 * filters with, so RBAC's resourceNames see exactly what the answer can hold. '' when there is none,
 * when it is not a valid path segment, or when the selector does not parse (the request is then
 * authorized as a list of everything, and answered 400 if allowed).
 */
function selectedName(fieldSelector: string): string {
  let name: string | undefined;
  try {
    name = requiredFieldValue(parseFieldSelector(fieldSelector), 'metadata.name');
  } catch (err) {
    if (err instanceof SelectorError) return '';
    throw err;
  }
  if (name === undefined || name === '.' || name === '..' || /[/%]/.test(name)) return '';
  return name;
}
