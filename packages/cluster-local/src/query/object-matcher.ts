import { errors } from '../api/api-error.js';
import type { KubeObject } from '../contracts.js';
import { metaOf } from '../objects/object-meta.js';
import type { ResourceType } from '../registry/resource-type.js';
import { matchesFields, parseFieldSelector } from './field-selector.js';
import { matchesLabels, parseLabelSelector, SelectorError } from './label-selector.js';

export type ObjectMatcher = (object: KubeObject) => boolean;

/**
 * The test a list or watch applies to stored objects: its label and field selectors, and the one
 * name it was authorized for when RBAC allowed it by resourceNames. Selectors that do not parse, or
 * name a field the kind does not support, are 400 BadRequest.
 */
export function objectMatcher(
  type: ResourceType,
  labelSelector: string | undefined,
  fieldSelector: string | undefined,
  authorizedName?: string,
): ObjectMatcher {
  try {
    const labels = parseLabelSelector(labelSelector ?? '');
    const fields = parseFieldSelector(fieldSelector ?? '');
    for (const { field } of fields) {
      if (field === 'metadata.name' || field === 'metadata.namespace') continue;
      if (type.fieldSelectors[field]) continue;
      throw errors.badRequest(
        type.crd
          ? `${JSON.stringify(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`
          : `field label not supported: ${field}`,
      );
    }
    if (labels.length === 0 && fields.length === 0 && authorizedName === undefined) {
      return () => true;
    }
    return (object) => {
      const meta = metaOf(object);
      // The selector already requires this name; checked again so that the answer can never hold
      // an object the authorization did not name, whatever the selector says.
      if (authorizedName !== undefined && meta.name !== authorizedName) return false;
      if (!matchesLabels(labels, meta.labels)) return false;
      return matchesFields(fields, (field) => {
        if (field === 'metadata.name') return meta.name;
        if (field === 'metadata.namespace') return meta.namespace ?? '';
        return type.fieldSelectors[field]!(object);
      });
    };
  } catch (err) {
    if (err instanceof SelectorError) throw errors.badRequest(err.message);
    throw err;
  }
}
