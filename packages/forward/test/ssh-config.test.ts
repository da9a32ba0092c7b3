import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ForwardError,
  hostLinesFor,
  proxyCommandLine,
  renderHostBlock,
  replaceHostBlock,
  shellQuote,
  type HostBlock,
} from '@paddock/forward';

const block = (name: string, key = `/home/me/.ssh/paddock_${name}`) =>
  renderHostBlock({
    name,
    identityFile: key,
    knownHostsFile: `/home/me/.config/paddock/forward-${name}.known_hosts`,
    strictHostKeyChecking: 'yes',
    proxyCommand: [
      '/usr/bin/node',
      '/opt/paddock/bin/paddock-forward.js',
      '--ssh',
      '--url',
      'https://ws.example/',
    ],
  });

const minimal: HostBlock = {
  name: 'x',
  identityFile: '/k',
  knownHostsFile: '/h',
  strictHostKeyChecking: 'yes',
  proxyCommand: ['n'],
};

describe('the ssh config block', () => {
  it('renders Host NAME between markers, with the ProxyCommand quoted for the shell', () => {
    assert.equal(
      block('dev'),
      [
        '# paddock-forward dev begin',
        'Host dev',
        '  HostName paddock-dev',
        '  HostKeyAlias paddock-dev',
        '  User workspace',
        '  IdentityFile "/home/me/.ssh/paddock_dev"',
        '  IdentitiesOnly yes',
        '  StrictHostKeyChecking yes',
        '  UserKnownHostsFile "/home/me/.config/paddock/forward-dev.known_hosts"',
        '  HashKnownHosts no',
        '  GlobalKnownHostsFile /dev/null',
        '  LogLevel ERROR',
        '  ProxyCommand /usr/bin/node /opt/paddock/bin/paddock-forward.js --ssh --url https://ws.example/',
        '# paddock-forward dev end',
      ].join('\n'),
    );
  });

  it("quotes spaces, quotes and $ for sh, and doubles % for ssh's tokens", () => {
    assert.equal(shellQuote('plain/path-1.js'), 'plain/path-1.js');
    assert.equal(shellQuote('/my dir/x'), `'/my dir/x'`);
    assert.equal(shellQuote(`it's $HOME`), `'it'\\''s $HOME'`);
    assert.equal(shellQuote(''), `''`);
    assert.equal(proxyCommandLine(['/a b/node', '100%']), `'/a b/node' '100%%'`);
    const withPercent = renderHostBlock({
      ...minimal,
      identityFile: '/k/50%',
      knownHostsFile: '/h%',
    });
    assert.match(withPercent, /IdentityFile "\/k\/50%%"/);
    assert.match(withPercent, /UserKnownHostsFile "\/h%%"/);
  });

  it('refuses paths an ssh config cannot hold', () => {
    assert.throws(() => proxyCommandLine(['a\nb']), ForwardError);
    for (const bad of ['/k/"q"', '/k/${HOME}', '/k/a\nb']) {
      assert.throws(() => renderHostBlock({ ...minimal, identityFile: bad }), ForwardError);
      assert.throws(() => renderHostBlock({ ...minimal, knownHostsFile: bad }), ForwardError);
    }
  });

  it('takes the key of a sandbox that does not report its host keys on first sight', () => {
    const text = renderHostBlock({ ...minimal, strictHostKeyChecking: 'accept-new' });
    assert.match(text, /^ {2}StrictHostKeyChecking accept-new$/m);
  });
});

describe('replacing the block in a config', () => {
  it('creates a config that holds only the block', () => {
    assert.equal(replaceHostBlock('', 'dev', block('dev')), `${block('dev')}\n`);
  });

  it('goes after the global options and before the first Host or Match section', () => {
    const config =
      'ServerAliveInterval 30\n\nHost *\n  User me\n\nHost other\n  HostName o.example\n';
    assert.equal(
      replaceHostBlock(config, 'dev', block('dev')),
      `ServerAliveInterval 30\n\n${block('dev')}\n\nHost *\n  User me\n\nHost other\n  HostName o.example\n`,
    );
    const onlyMatch = 'Match host x\n  User y\n';
    assert.equal(
      replaceHostBlock(onlyMatch, 'dev', block('dev')),
      `${block('dev')}\n\n${onlyMatch}`,
    );
  });

  it('appends when the config has global options only', () => {
    assert.equal(
      replaceHostBlock('Compression yes\n', 'dev', block('dev')),
      `Compression yes\n\n${block('dev')}\n`,
    );
  });

  it('replaces the old block in place and keeps everything else as it was', () => {
    const config = `Host a\n  User a\n\n${block('dev', '/old')}\n\nHost b\n  User b\n`;
    const updated = replaceHostBlock(config, 'dev', block('dev', '/new'));
    assert.equal(updated, `Host a\n  User a\n\n${block('dev', '/new')}\n\nHost b\n  User b\n`);
    assert.equal(replaceHostBlock(updated, 'dev', block('dev', '/new')), updated);
    assert.equal(hostLinesFor(updated, 'dev'), 1);
  });

  it('leaves the blocks of other names alone and drops duplicates of its own', () => {
    const config = `${block('dev', '/1')}\n\n${block('prod')}\n\n${block('dev', '/2')}\n`;
    const updated = replaceHostBlock(config, 'dev', block('dev', '/3'));
    assert.equal(updated, `${block('dev', '/3')}\n\n${block('prod')}\n`);
  });

  it('refuses a begin marker without its end, naming the line', () => {
    assert.throws(
      () =>
        replaceHostBlock('Host a\n# paddock-forward dev begin\nHost dev\n', 'dev', block('dev')),
      (err: unknown) =>
        err instanceof ForwardError &&
        /line 2 without "# paddock-forward dev end"/.test(err.message),
    );
  });

  it('counts the Host lines that name a host, aliases and = included', () => {
    assert.equal(
      hostLinesFor('Host dev\nHost x dev\nhost=dev\nHost devel\n  HostName dev\n', 'dev'),
      3,
    );
  });
});
