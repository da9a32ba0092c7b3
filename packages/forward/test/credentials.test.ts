import assert from 'node:assert/strict';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { UsageError } from '@paddock/common';
import {
  credentialsFileOf,
  ForwardError,
  normalizeBaseUrl,
  parseReplica,
  podName,
  sandboxBaseUrl,
  targetForm,
  type CredentialsFile,
  parseCredentialsFile,
  readCredentialsFile,
  requestHeaders,
  resolveTarget,
  type TargetFlags,
} from '@paddock/forward';
import { tempDir } from '@paddock/testing';
import { targetFlags as flags } from './support/target-flags.js';

/** What a --url target holds besides what a test checks. */
const urlForm = { apiKey: undefined, agent: undefined };

describe('where the target and credentials come from', () => {
  it('takes each setting from the flags, then the file, then the environment', () => {
    const env = { PADDOCK_FORWARD_URL: 'http://env/', PADDOCK_FORWARD_TOKEN: 'env-token' };
    assert.deepEqual(resolveTarget(flags(), {}, env), {
      ...urlForm,
      url: 'http://env/',
      token: 'env-token',
      cookie: undefined,
      headers: {},
    });
    const file = { url: 'https://file.example/ws', token: 'file-token', cookie: 'c=file' };
    assert.deepEqual(resolveTarget(flags(), file, env), {
      ...urlForm,
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
      { ...urlForm, url: 'http://flag:81/', token: 'flag-token', cookie: 'c=flag', headers: {} },
    );
  });

  it('takes the cookie and extra headers from the environment too, below the file and flags', () => {
    const env = {
      PADDOCK_FORWARD_URL: 'http://env/',
      PADDOCK_FORWARD_COOKIE: '_oauth2_proxy=env',
      PADDOCK_FORWARD_HEADERS: 'X-Forwarded-Sub: env-sub\nX-Api-Key:  k1  \n\n',
    };
    assert.deepEqual(resolveTarget(flags(), {}, env), {
      ...urlForm,
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
    assert.throws(() => resolveTarget(flags(), {}, {}), /the target is missing/);
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

describe('the dashboard form of the target', () => {
  const door = 'https://paddock.example/api/workspaces/team/agents/coder/pods/coder-0/sandbox/';
  const agent = {
    dashboard: 'https://paddock.example/',
    workspace: 'team',
    agent: 'coder',
    replica: 0,
  };
  const dashboardFlags = {
    dashboard: 'https://paddock.example',
    workspace: 'team',
    agent: 'coder',
    apiKey: 'pk_flag',
  };

  it("resolves to the agent pod's door in the dashboard, with the key as X-API-Key", () => {
    const target = resolveTarget(flags(dashboardFlags), {}, {});
    assert.deepEqual(target, {
      url: door,
      token: undefined,
      cookie: undefined,
      apiKey: 'pk_flag',
      headers: {},
      agent,
    });
    assert.deepEqual(requestHeaders(target), { 'X-API-Key': 'pk_flag' });
    assert.deepEqual(credentialsFileOf(target), { ...agent, apiKey: 'pk_flag' });
  });

  it('takes each setting from the flags, then the file, then the environment', () => {
    const env = {
      PADDOCK_DASHBOARD_URL: 'http://env:8080/prefix',
      PADDOCK_WORKSPACE: 'env-ws',
      PADDOCK_AGENT: 'env-agent',
      PADDOCK_API_KEY: 'pk_env',
    };
    assert.deepEqual(resolveTarget(flags(), {}, env), {
      url: 'http://env:8080/prefix/api/workspaces/env-ws/agents/env-agent/pods/env-agent-0/sandbox/',
      token: undefined,
      cookie: undefined,
      apiKey: 'pk_env',
      headers: {},
      agent: {
        dashboard: 'http://env:8080/prefix/',
        workspace: 'env-ws',
        agent: 'env-agent',
        replica: 0,
      },
    });
    const file = { workspace: 'file-ws', replica: 3, apiKey: 'pk_file' };
    const fromFile = resolveTarget(flags({ agent: 'a' }), file, env);
    assert.equal(
      fromFile.url,
      'http://env:8080/prefix/api/workspaces/file-ws/agents/a/pods/a-3/sandbox/',
    );
    assert.equal(fromFile.apiKey, 'pk_file');
    const fromFlags = resolveTarget(flags({ ...dashboardFlags, replica: '1' }), file, env);
    assert.equal(
      fromFlags.url,
      'https://paddock.example/api/workspaces/team/agents/coder/pods/coder-1/sandbox/',
    );
    assert.equal(fromFlags.apiKey, 'pk_flag');
  });

  it('lets the first layer naming a URL or a dashboard choose the form', () => {
    const dashEnv = { PADDOCK_DASHBOARD_URL: 'http://d/', PADDOCK_API_KEY: 'pk' };
    const cases: Array<[TargetFlags, CredentialsFile, NodeJS.ProcessEnv, 'url' | 'dashboard']> = [
      [flags({ url: 'http://u/' }), { dashboard: 'http://d/' }, dashEnv, 'url'],
      [flags({ dashboard: 'http://d/' }), { url: 'http://u/' }, {}, 'dashboard'],
      [flags(), { url: 'http://u/' }, dashEnv, 'url'],
      [flags(), { dashboard: 'http://d/' }, { PADDOCK_FORWARD_URL: 'http://u/' }, 'dashboard'],
      [flags(), {}, dashEnv, 'dashboard'],
      [flags(), {}, { PADDOCK_FORWARD_URL: 'http://u/' }, 'url'],
    ];
    for (const [f, file, env, form] of cases) {
      assert.equal(targetForm(f, file, env), form, JSON.stringify([f, file, env]));
    }
    // An ambient dashboard API key never goes to a --url proxy.
    const urlTarget = resolveTarget(flags({ url: 'http://u/' }), {}, dashEnv);
    assert.deepEqual(requestHeaders(urlTarget), {});
  });

  const mistakes: Array<[TargetFlags, CredentialsFile, NodeJS.ProcessEnv, RegExp]> = [
    [flags({ url: 'http://u/', dashboard: 'http://d/' }), {}, {}, /^--url and --dashboard exclude/],
    [flags(), { url: 'http://u/', dashboard: 'http://d/' }, {}, /credentials file's "url" and/],
    [
      flags({ url: 'http://u/', workspace: 'w' }),
      {},
      {},
      /^--workspace only goes with --dashboard$/,
    ],
    [flags({ url: 'http://u/', apiKey: 'k' }), {}, {}, /^--api-key only goes with --dashboard$/],
    [flags({ ...dashboardFlags, workspace: undefined }), {}, {}, /^the workspace is missing/],
    [flags({ ...dashboardFlags, agent: undefined }), {}, {}, /^the agent is missing/],
    [flags({ ...dashboardFlags, apiKey: undefined }), {}, {}, /^the API key is missing/],
    [flags({ ...dashboardFlags, workspace: 'Team' }), {}, {}, /^--workspace must be a workspace/],
    [flags({ ...dashboardFlags, agent: '..' }), {}, {}, /^--agent must be/],
    [flags({ ...dashboardFlags, agent: 'a/b' }), {}, {}, /^--agent must be/],
    [flags({ ...dashboardFlags, replica: '-1' }), {}, {}, /^--replica must be a whole number/],
    [flags({ ...dashboardFlags, replica: 'x' }), {}, {}, /^--replica must be a whole number/],
    [flags({ ...dashboardFlags, dashboard: 'ftp://d/' }), {}, {}, /^--dashboard must be an http/],
    [flags({ ...dashboardFlags, dashboard: 'https://u:p@d/' }), {}, {}, /use --api-key$/],
    [flags({ ...dashboardFlags, apiKey: 'a\nb' }), {}, {}, /the API key must not contain line/],
  ];
  for (const [f, file, env, message] of mistakes) {
    it(`refuses ${JSON.stringify({ ...f, headers: undefined })} ${JSON.stringify(file)}`, () => {
      assert.throws(
        () => resolveTarget(f, file, env),
        (err: unknown) => err instanceof UsageError && message.test(err.message),
      );
    });
  }

  it('takes a token or cookie instead of an API key', () => {
    const target = resolveTarget(
      flags({ ...dashboardFlags, apiKey: undefined, token: 't' }),
      {},
      {},
    );
    assert.deepEqual(requestHeaders(target), { Authorization: 'Bearer t' });
  });

  it('builds the door URL with every name encoded as one path segment', () => {
    assert.equal(sandboxBaseUrl(agent), door);
    assert.equal(
      sandboxBaseUrl({ ...agent, dashboard: 'http://h:1/a/b/', replica: 12 }),
      'http://h:1/a/b/api/workspaces/team/agents/coder/pods/coder-12/sandbox/',
    );
    assert.equal(podName('coder', 0), 'coder-0');
    assert.equal(parseReplica('0'), 0);
    assert.equal(parseReplica(7), 7);
    assert.throws(() => parseReplica(1.5), UsageError);
    assert.throws(() => parseReplica('12345'), UsageError);
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
    assert.deepEqual(
      parseCredentialsFile(
        '{"dashboard":"http://d/","workspace":"w","agent":"a","replica":1,"apiKey":"k"}',
        'f',
      ),
      { dashboard: 'http://d/', workspace: 'w', agent: 'a', replica: 1, apiKey: 'k' },
    );
    assert.throws(() => parseCredentialsFile('{"replica":"1"}', 'f'), /"replica" must be a whole/);
    assert.throws(() => parseCredentialsFile('{"replica":-1}', 'f'), /"replica" must be a whole/);
    assert.throws(() => parseCredentialsFile('{"apiKey":1}', 'f'), /"apiKey" must be a string/);
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
