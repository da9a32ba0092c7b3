import fastJsonPatch, { type Operation } from 'fast-json-patch';
import { errors } from '../api/api-error.js';

/** RFC 6902 JSON patch; a malformed patch is 400, one that does not apply 422 (Kubernetes' codes). */
export function jsonPatch(target: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) {
    throw errors.badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  }
  const problem = fastJsonPatch.validate(patch as Operation[], undefined);
  if (problem)
    throw errors.badRequest(
      `the server rejected our request due to an error in our request: ${problem.message}`,
    );
  try {
    return fastJsonPatch.applyPatch(structuredClone(target), patch as Operation[], true, false)
      .newDocument;
  } catch {
    throw errors.patchNotApplied();
  }
}
