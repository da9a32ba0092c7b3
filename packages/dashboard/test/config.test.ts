import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '@paddock/common';
import { loadDashboardConfig, publicOrigin } from '../src/config.js';

const randomSecret = () => 'r'.repeat(43);
const load = (env: Record<string, string>, readSecretFile?: (path: string) => string) =>
  loadDashboardConfig(env, readSecretFile ? { randomSecret, readSecretFile } : { randomSecret });

function problemsOf(
  env: Record<string, string>,
  readSecretFile?: (path: string) => string,
): string[] {
  try {
    load(env, readSecretFile);
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return [...err.problems];
  }
  assert.fail('the configuration was accepted');
}

describe('dashboard configuration', () => {
  it('has the specification’s defaults', () => {
    const config = load({});
    assert.equal(config.SVC_AUTH_MODE, 'anonymous');
    assert.equal(config.SVC_SESSION_COOKIE_NAME, 'svc_session');
    assert.equal(config.SVC_SESSION_TTL, 86_400);
    assert.equal(config.SVC_AUTH_ANONYMOUS_ROLE, 'viewer');
    assert.equal(config.SVC_AUTH_PROXY_HEADER_USER, 'X-Forwarded-User');
    assert.equal(config.SVC_AUTH_PROXY_HEADER_EMAIL, 'X-Forwarded-Email');
    assert.equal(config.SVC_AUTH_PROXY_HEADER_GROUPS, 'X-Forwarded-Groups');
    assert.equal(config.SVC_AUTH_PROXY_HEADER_DISPLAY_NAME, 'X-Forwarded-Preferred-Username');
    assert.equal(config.SVC_AUTH_PROXY_AUTO_SIGNUP, true);
    assert.equal(config.SVC_OAUTH_PROVIDER, 'generic');
    assert.equal(config.SVC_OAUTH_CLAIM_USERNAME, 'preferred_username');
    assert.equal(config.SVC_OAUTH_CLAIM_GROUPS, 'groups');
    assert.equal(config.SVC_AUTH_API_KEYS_ENABLED, true);
    assert.equal(config.SVC_AUTH_API_KEYS_MAX_PER_USER, 10);
    assert.equal(config.SVC_AUTH_API_KEYS_DEFAULT_EXPIRATION, 90);
    assert.equal(config.SVC_BUILTIN_STORE_TYPE, 'sqlite');
    assert.equal(config.SVC_BUILTIN_SQLITE_PATH, './data/svc-users.db');
    assert.equal(config.SVC_BUILTIN_ALLOW_SIGNUP, false);
    assert.equal(config.SVC_BUILTIN_MIN_PASSWORD_LENGTH, 8);
    assert.equal(config.SVC_BUILTIN_MAX_FAILED_ATTEMPTS, 5);
    assert.equal(config.SVC_BUILTIN_LOCKOUT_DURATION, 900);
    assert.equal(config.SVC_BUILTIN_RESET_TOKEN_EXPIRATION, 3600);
    assert.equal(config.SVC_BUILTIN_VERIFICATION_TOKEN_EXPIRATION, 86_400);
    assert.equal(config.SVC_BUILTIN_ADMIN_USERNAME, 'admin');
    assert.deepEqual(config.SVC_LISTEN_ADDR, { host: '127.0.0.1', port: 3000 });
    assert.equal(config.sessionSecretGenerated, true);
    assert.equal(config.sessionSecret, randomSecret());
  });

  it('reports every problem at once', () => {
    const problems = problemsOf({
      SVC_AUTH_MODE: 'oauth',
      SVC_SESSION_SECRET: 'too-short',
      SVC_OAUTH_PROVIDER: 'facebook',
      SVC_SESSION_TTL: 'a day',
      SVC_AUTH_PROXY_TRUSTED_ADDRESSES: '10.0.0.0/33',
    });
    assert.equal(problems.length, 2, problems.join('\n')); // the cross checks wait for these
    assert.ok(problems.some((p) => p.startsWith('SVC_OAUTH_PROVIDER:')));
    assert.ok(problems.some((p) => p.startsWith('SVC_SESSION_TTL:')));
    const cross = problemsOf({
      SVC_AUTH_MODE: 'oauth',
      SVC_SESSION_SECRET: 'too-short',
      SVC_AUTH_PROXY_TRUSTED_ADDRESSES: '10.0.0.0/33,not-an-ip',
    });
    for (const start of [
      'SVC_SESSION_SECRET: must be at least 32',
      'SVC_AUTH_PROXY_TRUSTED_ADDRESSES: "10.0.0.0/33"',
      'SVC_AUTH_PROXY_TRUSTED_ADDRESSES: "not-an-ip"',
      'SVC_BASE_URL: required in oauth mode',
      'SVC_OAUTH_CLIENT_ID: required',
      'SVC_OAUTH_ISSUER_URL: required for provider generic',
    ]) {
      assert.ok(
        cross.some((p) => p.startsWith(start)),
        `${start}\n${cross.join('\n')}`,
      );
    }
  });

  it('asks azure for a tenant, okta for a domain, github for a secret', () => {
    const base = {
      SVC_AUTH_MODE: 'oauth',
      SVC_BASE_URL: 'https://dash.example',
      SVC_OAUTH_CLIENT_ID: 'c',
    };
    assert.match(
      problemsOf({ ...base, SVC_OAUTH_PROVIDER: 'azure' }).join(),
      /SVC_OAUTH_DIRECTORY_TENANT_ID: required/,
    );
    assert.match(
      problemsOf({ ...base, SVC_OAUTH_PROVIDER: 'okta' }).join(),
      /SVC_OAUTH_WORKFORCE_DOMAIN: required/,
    );
    assert.match(
      problemsOf({ ...base, SVC_OAUTH_PROVIDER: 'github' }).join(),
      /SVC_OAUTH_CLIENT_SECRET: required/,
    );
  });

  it('takes the specification’s neutral provider names as aliases', () => {
    const base = {
      SVC_AUTH_MODE: 'oauth',
      SVC_BASE_URL: 'https://dash.example',
      SVC_OAUTH_CLIENT_ID: 'c',
    };
    assert.equal(
      load({ ...base, SVC_OAUTH_PROVIDER: 'provider_web' }).SVC_OAUTH_PROVIDER,
      'google',
    );
    assert.equal(
      load({ ...base, SVC_OAUTH_PROVIDER: 'provider_code', SVC_OAUTH_CLIENT_SECRET: 's' })
        .SVC_OAUTH_PROVIDER,
      'github',
    );
    assert.equal(
      load({
        ...base,
        SVC_OAUTH_PROVIDER: 'provider_directory',
        SVC_OAUTH_DIRECTORY_TENANT_ID: 't',
      }).SVC_OAUTH_PROVIDER,
      'azure',
    );
    assert.equal(
      load({
        ...base,
        SVC_OAUTH_PROVIDER: 'provider_workforce',
        SVC_OAUTH_WORKFORCE_DOMAIN: 'x.okta.com',
      }).SVC_OAUTH_PROVIDER,
      'okta',
    );
  });

  it('reads the client secret from its file, and reports a file it cannot read', () => {
    const base = {
      SVC_AUTH_MODE: 'oauth',
      SVC_BASE_URL: 'https://dash.example/app',
      SVC_OAUTH_CLIENT_ID: 'c',
      SVC_OAUTH_PROVIDER: 'google',
      SVC_OAUTH_CLIENT_SECRET_FILE: '/run/secrets/client',
    };
    assert.equal(load(base, () => 'from-file').oauthClientSecret, 'from-file');
    const problems = problemsOf(base, () => {
      throw new Error('ENOENT: no such file or directory');
    });
    assert.match(
      problems.join(),
      /SVC_OAUTH_CLIENT_SECRET_FILE: cannot read \/run\/secrets\/client: ENOENT/,
    );
  });

  it('requires a PostgreSQL URL for the postgresql store', () => {
    assert.match(
      problemsOf({ SVC_BUILTIN_STORE_TYPE: 'postgresql' }).join(),
      /SVC_BUILTIN_POSTGRES_URL: required/,
    );
  });

  it('derives the public origin from SVC_BASE_URL, else from the listen address', () => {
    assert.equal(
      publicOrigin(load({ SVC_BASE_URL: 'https://dash.example:8443/paddock/' })),
      'https://dash.example:8443',
    );
    assert.equal(publicOrigin(load({ SVC_LISTEN_ADDR: '0.0.0.0:3100' })), 'http://127.0.0.1:3100');
  });
});
