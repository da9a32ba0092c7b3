import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestInfo } from '../src/server/request-info.js';

const info = (method: string, path: string, query = '') =>
  requestInfo(method, path, new URLSearchParams(query));

describe('request info', () => {
  it('reads resources, namespaces, names, subresources and verbs from paths', () => {
    assert.deepEqual(info('GET', '/api/v1/namespaces/ns/pods/p/log'), {
      isResource: true,
      path: '/api/v1/namespaces/ns/pods/p/log',
      group: '',
      version: 'v1',
      namespace: 'ns',
      resource: 'pods',
      name: 'p',
      pathName: 'p',
      subresource: 'log',
      verb: 'get',
    });
    const list = info('GET', '/apis/paddock.dev/v1alpha1/workspaces');
    assert.equal(
      list.isResource && `${list.group} ${list.resource} ${list.verb}`,
      'paddock.dev workspaces list',
    );
    const watch = info('GET', '/api/v1/pods', 'watch=1&fieldSelector=metadata.name%3Dp');
    assert.equal(watch.isResource && `${watch.verb} ${watch.name} ${watch.pathName}`, 'watch p ');
    const collection = info('DELETE', '/api/v1/namespaces/ns/configmaps');
    assert.equal(collection.isResource && collection.verb, 'deletecollection');
    const namespace = info('PUT', '/api/v1/namespaces/ns/finalize');
    assert.equal(
      namespace.isResource &&
        `${namespace.resource} ${namespace.name} ${namespace.subresource} ${namespace.namespace}`,
      'namespaces ns finalize ns',
    );
    const legacy = info('GET', '/api/v1/watch/namespaces/ns/pods');
    assert.equal(legacy.isResource && legacy.verb, 'watch');
  });

  it('treats discovery and health as non-resource requests', () => {
    for (const path of [
      '/api',

      '/apis',
      '/apis/rbac.authorization.k8s.io',
      '/healthz',
      '/version',
    ]) {
      assert.deepEqual(info('GET', path), { isResource: false, path, verb: 'get' });
    }
  });
});
