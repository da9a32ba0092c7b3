import assert from 'node:assert/strict';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { UsageError } from '@paddock/common';
import {
  ForwardError,
  normalizeBaseUrl,
  parseCredentialsFile,
  readCredentialsFile,
  requestHeaders,
  resolveTarget,
  type TargetFlags,
} from '@paddock/forward';
import { tempDir } from '@paddock/testing';

const flags = (over: Partial<TargetFlags> = {}): TargetFlags => ({
  url: undefined,
  token: undefined,
  cookie: undefined,
  headers: [],
  credentialsFile: undefined,
  ...over,
});

describe('where the target and credentials come from', () => {
  it('takes each setting from the flags, then the file, then the environment', () => {
    const env = { PADDOCK_FORWARD_URL: 'http://env/', PADDOCK_FORWARD_TOKEN: 'env-token' };
    assert.deepEqual(resolveTarget(flags(), {}, env), {
      url: 'http://env/',
      token: 'env-token',
      cookie: undefined,
      headers: {},
    });
    const file = { url: 'https://file.example/ws', token: 'file-token', cookie: 'c=file' };
    assert.deepEqual(resolveTarget(flags(), file, env), {
      url: 'https://file.example/ws/',
      token: 'file-token',
      cookie: 'c=file',
      headers: {},
    });
    assert.deepEqual(
      resolveTarget(
        flags({ url: 'http://flag:81', token: 'flag-token', cookie: 'c=flag' }),
        file,
        env,
      ),
      { url: 'http://flag:81/', token: 'flag-token', cookie: 'c=flag', headers: {} },
    );
  });

  it('takes the cookie and extra headers from the environment too, below the file and flags', () => {
    const env = {
      PADDOCK_FORWARD_URL: 'http://env/',
      PADDOCK_FORWARD_COOKIE: '_oauth2_proxy=env',
      PADDOCK_FORWARD_HEADERS: 'X-Forwarded-Sub: env-sub\nX-Api-Key:  k1  \n\n',
    };
    assert.deepEqual(resolveTarget(flags(), {}, env), {
      url: 'http://env/',
      token: undefined,
      cookie: '_oauth2_proxy=env',
      headers: { 'X-Forwarded-Sub': 'env-sub', 'X-Api-Key': 'k1' },
    });
    const target = resolveTarget(
      flags({ headers: ['x-api-key: flag'] }),
      { cookie: 'c=file', headers: { 'x-forwarded-sub': 'file-sub' } },
      env,
    );
    assert.equal(target.cookie, 'c=file');
    assert.deepEqual(target.headers, { 'x-forwarded-sub': 'file-sub', 'x-api-key': 'flag' });
    assert.throws(
      () => resolveTarget(flags(), {}, { ...env, PADDOCK_FORWARD_HEADERS: 'no colon here' }),
      /must be "Name: value"/,
    );
  });

  it('merges headers by case-insensitive name, the flag winning', () => {
    const target = resolveTarget(
      flags({ url: 'http://h', headers: ['x-forwarded-sub: bob', 'X-Extra:  v  '] }),
      { headers: { 'X-Forwarded-Sub': 'alice', 'X-Forwarded-User': 'Alice' } },
      {},
    );
    assert.deepEqual(target.headers, {
      'X-Forwarded-User': 'Alice',
      'x-forwarded-sub': 'bob',
      'X-Extra': 'v',
    });
  });

  it('sends the token as a bearer, the cookie as Cookie, and the extra headers', () => {
    const target = resolveTarget(
      flags({ url: 'http://h', token: 't', cookie: 'a=1', headers: ['X-A: 1'] }),
      {},
      {},
    );
    assert.deepEqual(requestHeaders(target), {
      'X-A': '1',
      Authorization: 'Bearer t',
      Cookie: 'a=1',
    });
  });

  it('needs a URL, and an http(s) one without credentials, query or fragment', () => {
    assert.throws(() => resolveTarget(flags(), {}, {}), /the sandbox URL is missing/);
    assert.equal(normalizeBaseUrl('https://gw.example/ws/abc'), 'https://gw.example/ws/abc/');
    for (const [url, message] of [
      ['ftp://h/', /http:\/\/ or https:\/\//],
      ['not a url', /http:\/\/ or https:\/\//],
      ['https://u:p@h/', /must not hold credentials/],
      ['https://h/?a=1', /query or a fragment/],
    ] as const) {
      assert.throws(
        () => normalizeBaseUrl(url),
        (err: unknown) => err instanceof UsageError && message.test(err.message),
      );
    }
  });

  it('refuses malformed headers and line breaks', () => {
    assert.throws(
      () => resolveTarget(flags({ url: 'http://h', headers: ['NoColon'] }), {}, {}),
      /--header must be "Name: value"/,
    );
    assert.throws(
      () => resolveTarget(flags({ url: 'http://h', headers: ['Bad Name: v'] }), {}, {}),
      UsageError,
    );
    assert.throws(
      () => resolveTarget(flags({ url: 'http://h', token: 'a\r\nb' }), {}, {}),
      /line breaks/,
    );
  });
});

describe('the credentials file', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    dir = await tempDir();
  });
  after(() => dir.remove());

  it('parses url, token, cookie, headers and the ssh key, and names what is wrong', () => {
    assert.deepEqual(
      parseCredentialsFile(
        '{"url":"http://h/","token":"t","headers":{"X-A":"1"},"sshKey":{"id":"i","fingerprint":"f","keyFile":"/k"}}',
        'f',
      ),
      {
        url: 'http://h/',
        token: 't',
        headers: { 'X-A': '1' },
        sshKey: { id: 'i', fingerprint: 'f', keyFile: '/k' },
      },
    );
    assert.throws(() => parseCredentialsFile('{', 'f.json'), /credentials file f.json is not JSON/);
    assert.throws(() => parseCredentialsFile('[]', 'f'), /must hold a JSON object/);
    assert.throws(() => parseCredentialsFile('{"token":1}', 'f'), /"token" must be a string/);
    assert.throws(() => parseCredentialsFile('{"headers":{"A":1}}', 'f'), /header "A"/);
  });

  it('is refused when group or others may read it', async () => {
    const path = join(dir.path, 'open.json');
    await writeFile(path, '{"url":"http://h/"}');
    await chmod(path, 0o644);
    await assert.rejects(
      readCredentialsFile(path),
      (err: unknown) =>
        err instanceof ForwardError &&
        err.message ===
          `credentials file ${path} is accessible to group or others (mode 0644); run "chmod 600 ${path}"`,
    );
    await chmod(path, 0o600);
    assert.deepEqual(await readCredentialsFile(path), { url: 'http://h/' });
  });

  it('says so when it cannot be read', async () => {
    await assert.rejects(
      readCredentialsFile(join(dir.path, 'none.json')),
      /cannot read credentials file .*none\.json/,
    );
  });
});
