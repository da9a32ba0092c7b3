import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { API_TYPES_FILE, apiTypesSource } from '../../../scripts/api-types.js';

describe('the web interface’s API types', () => {
  it('are those generated from the routes’ schemas as they are now (else: npm run generate)', async () => {
    const written = readFileSync(API_TYPES_FILE, 'utf8');
    assert.ok(
      written === (await apiTypesSource()),
      'packages/dashboard-web/src/api-types.ts is stale: run npm run generate',
    );
  });

  it('name the routes and the shapes the web interface uses', () => {
    const written = readFileSync(API_TYPES_FILE, 'utf8');
    for (const name of ["'/api/auth/me'", "'/api/workspaces/{name}'", 'WorkspaceDetails: {']) {
      assert.ok(written.includes(name), name);
    }
  });
});
