import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import {
  BUILTIN_PATTERNS,
  Scrubber,
  childEnvironment,
  isSecretName,
  parsePatternFile,
  secretsFromEnv,
} from '@paddock/common/scrub';

/**
 * Fake credentials in the issuers' shapes. Each is assembled from pieces at run time so that no
 * secret scanner takes this file for a leak; none of them was ever valid.
 */
const FAKE = {
  awsKeyId: 'AKIA' + 'IOSFODNN7EXAMPLE',
  awsSecret: 'wJalrXUtnFEMI/K7MDENG/' + 'bPxRfiCYEXAMPLEKEY',
  github: 'gh' + 'p_' + 'a1B2c3D4e5'.repeat(3) + 'F6g7H8',
  githubFineGrained:
    'github' + '_pat_' + '11ABCDEFG0' + 'abcdefghij'.repeat(2) + '_' + 'Z9'.repeat(20),
  gitlab: 'gl' + 'pat-' + 'xY9zK2mN4pQ7rS1tU3vW',
  slack: 'xo' + 'xb-' + '123456789012-1234567890123-' + 'AbCdEfGhIjKlMnOpQrStUvWx',
  slackApp: 'xa' + 'pp-' + '1-A0123456789-0123456789012-' + 'abcdef0123456789',
  stripe: 'sk' + '_live_' + '4eC39HqLyjWDarjtT1zdp7dc',
  stripeRestricted: 'rk' + '_live_' + '51H8abcdefGHIJKLmnopQR',
  stripeTest: 'sk' + '_test_' + '4eC39HqLyjWDarjtT1zdp7dc',
  openai: 'sk' + '-proj-' + 'Ab3dEf6hIj9lMn2pQr5tUv8xYz' + '_-aB1cD2eF3gH4iJ5',
  openaiLegacy: 'sk' + '-' + 'T3Blbk'.repeat(4) + 'aB1cD2eF3gH4iJ5kL6mN7oP8',
  anthropic: 'sk' + '-ant-' + 'api03-' + 'aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3-_AA',
  google: 'AI' + 'za' + 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q',
  npm: 'np' + 'm_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
  pypi:
    'py' + 'pi-' + 'AgEIcHlwaS5vcmc' + 'CJGI0NTZkMjE5LTk0ZjEtNGQ1Ni1hYjU5LTJmMmIxN2IzMzBiMwACKl',
  jwt:
    'ey' +
    'JhbGciOiJIUzI1NiJ9' +
    '.eyJzdWIiOiIxMjM0NTY3ODkwIn0' +
    '.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  slackWebhookPath: 'T00000000/B00000000/' + 'XXXXXXXXXXXXXXXXXXXXXXXX',
  pemHeader: '-----BEGIN RSA ' + 'PRIVATE KEY-----',
  pemFooter: '-----END RSA ' + 'PRIVATE KEY-----',
  pemBody: [
    'MIIEpAIBAAKCAQEA' + 'q1W2e3R4t5Y6u7I8'.repeat(3),
    'o9P0a1S2d3F4g5H6'.repeat(4),
    'j7K8l9Z0x1C2v3B4==',
  ],
};

const scrubber = new Scrubber();

/**
 * For each built-in kind: inputs with what each becomes, and look-alikes that must stay as they
 * are. Where only part of a match is a secret (a value after its name, a URL's password), the
 * rest stays readable.
 */
const KINDS: Record<string, { redacts: Array<[string, string]>; keeps: string[] }> = {
  'private-key': {
    redacts: [
      [
        `key:\n${FAKE.pemHeader}\n${FAKE.pemBody.join('\n')}\n${FAKE.pemFooter}\ndone`,
        'key:\n[REDACTED:private-key]\ndone',
      ],
    ],
    keeps: [`const HEADER = '${FAKE.pemHeader}';`, 'BEGIN a private key section'],
  },
  'url-credentials': {
    redacts: [
      ['postgres://app:s3cret-Pw@db:5432/x', 'postgres://app:[REDACTED:url-credentials]@db:5432/x'],
    ],
    keeps: ['http://localhost:3000/path@v2', 'ssh://git@example.com:22/repo.git'],
  },
  'slack-webhook': {
    redacts: [
      [
        `curl https://hooks.slack.com/services/${FAKE.slackWebhookPath} -d @msg.json`,
        'curl https://hooks.slack.com/services/[REDACTED:slack-webhook] -d @msg.json',
      ],
    ],
    keeps: ['see https://hooks.slack.com/services/ for the format'],
  },
  authorization: {
    redacts: [
      [
        'Authorization: Bearer 8f14e45fceea167a5a36dedd4bea2543',
        'Authorization: Bearer [REDACTED:authorization]',
      ],
      [
        '"authorization": "Basic dXNlcjpwYXNzd29yZA=="',
        '"authorization": "Basic [REDACTED:authorization]"',
      ],
    ],
    keeps: ["headers: { authorization: 'Bearer ' + token }", "authorization: 'token my-token'"],
  },
  'aws-secret-key': {
    redacts: [
      [
        `aws_secret_access_key = ${FAKE.awsSecret}`,
        'aws_secret_access_key = [REDACTED:aws-secret-key]',
      ],
      [`"SecretAccessKey": "${FAKE.awsSecret}"`, '"SecretAccessKey": "[REDACTED:aws-secret-key]"'],
    ],
    keeps: ['aws_secret_access_key = ${AWS_SECRET}', 'aws_secret_access_key ='],
  },
  'secret-assignment': {
    redacts: [['GITHUB_TOKEN=abc123xyz', 'GITHUB_TOKEN=[REDACTED:secret-assignment]']],
    keeps: ['const token = getToken()', 'PASSWORD_MIN_LENGTH = 8'],
  },
  'aws-access-key': {
    redacts: [[`id ${FAKE.awsKeyId} ok`, 'id [REDACTED:aws-access-key] ok']],
    keeps: ['AKIA' + 'IOSFODNN7EXAMPL', 'ASIA is a continent; AKIAIOSFODNN7EXAMPLEX1'],
  },
  'github-token': {
    redacts: [
      [`token ${FAKE.github}`, 'token [REDACTED:github-token]'],
      [`token ${FAKE.githubFineGrained}`, 'token [REDACTED:github-token]'],
    ],
    keeps: ['gh' + 'p_short', 'git push origin gh_pages', 'github_pat_prefix_length'],
  },
  'gitlab-token': {
    redacts: [[`using ${FAKE.gitlab} now`, 'using [REDACTED:gitlab-token] now']],
    keeps: ['gl' + 'pat-short', 'glpat-token-docs'],
  },
  'slack-token': {
    redacts: [
      [`bot ${FAKE.slack}`, 'bot [REDACTED:slack-token]'],
      [`app ${FAKE.slackApp}`, 'app [REDACTED:slack-token]'],
    ],
    keeps: ['xo' + 'xb-not-a-real-token-here'],
  },
  'stripe-key': {
    redacts: [
      [FAKE.stripe, '[REDACTED:stripe-key]'],
      [FAKE.stripeRestricted, '[REDACTED:stripe-key]'],
      [FAKE.stripeTest, '[REDACTED:stripe-key]'],
    ],
    keeps: ['sk' + '_live_short', 'disk_live_mount_point_name'],
  },
  'anthropic-key': {
    redacts: [[`key ${FAKE.anthropic}.`, 'key [REDACTED:anthropic-key].']],
    keeps: ['sk' + '-ant-short'],
  },
  'openai-key': {
    redacts: [
      [FAKE.openai, '[REDACTED:openai-key]'],
      [FAKE.openaiLegacy, '[REDACTED:openai-key]'],
    ],
    keeps: ['task-runner sk-learn', '.sk-folding-cube-animation-delay-second'],
  },
  'google-api-key': {
    redacts: [[`key=${FAKE.google}&q=1`, 'key=[REDACTED:google-api-key]&q=1']],
    keeps: ['AI' + 'zaShortValue123'],
  },
  'npm-token': {
    redacts: [[`//registry/:x=${FAKE.npm}`, '//registry/:x=[REDACTED:npm-token]']],
    keeps: ['npm_config_cache=/tmp/npm_cache_directory_name_here'],
  },
  'pypi-token': {
    redacts: [
      [`password: ${FAKE.pypi}`, 'password: [REDACTED:secret-assignment]'],
      [FAKE.pypi, '[REDACTED:pypi-token]'],
    ],
    keeps: ['py' + 'pi-package-name'],
  },
  jwt: {
    redacts: [[`cookie=${FAKE.jwt}; Path=/`, 'cookie=[REDACTED:jwt]; Path=/']],
    keeps: ['eyJhbGciOiJIUzI1NiJ9.only-two-parts', 'keyJson.parse.result'],
  },
};

describe('built-in patterns', () => {
  for (const [kind, { redacts, keeps }] of Object.entries(KINDS)) {
    it(`redacts ${kind} and keeps its look-alikes`, () => {
      for (const [input, expected] of redacts) assert.equal(scrubber.scrub(input), expected);
      for (const text of keeps) assert.equal(scrubber.scrub(text), text);
    });
  }

  it('has a case above for every built-in kind', () => {
    assert.deepEqual(
      Object.keys(KINDS).sort(),
      [...new Set(BUILTIN_PATTERNS.map((p) => p.kind))].sort(),
    );
  });

  it('finds a token wherever it sits: text edges, quotes, brackets, punctuation', () => {
    const tokens: Array<[string, string]> = [
      [FAKE.awsKeyId, 'aws-access-key'],
      [FAKE.github, 'github-token'],
      [FAKE.gitlab, 'gitlab-token'],
      [FAKE.slack, 'slack-token'],
      [FAKE.stripe, 'stripe-key'],
      [FAKE.anthropic, 'anthropic-key'],
      [FAKE.openai, 'openai-key'],
      [FAKE.google, 'google-api-key'],
      [FAKE.npm, 'npm-token'],
      [FAKE.pypi, 'pypi-token'],
      [FAKE.jwt, 'jwt'],
    ];
    for (const [token, kind] of tokens) {
      for (const [before, after] of [
        ['', ''],
        ['"', '"'],
        ['(', ')'],
        ['x ', '.'],
        ['\n', '\n'],
      ]) {
        assert.equal(scrubber.scrub(before + token + after), `${before}[REDACTED:${kind}]${after}`);
      }
    }
  });
});

describe('secret assignments', () => {
  const redacted = '[REDACTED:secret-assignment]';

  it('redacts the value and keeps the name in shell commands', () => {
    assert.equal(
      scrubber.scrub('export DB_PASSWORD="hunter22"'),
      `export DB_PASSWORD="${redacted}"`,
    );
    assert.equal(scrubber.scrub("export API_KEY='k3y-value'"), `export API_KEY='${redacted}'`);
    assert.equal(
      scrubber.scrub('DB_PASSWORD=hunter22 ./run.sh'),
      `DB_PASSWORD=${redacted} ./run.sh`,
    );
    assert.equal(scrubber.scrub('mysql --password=hunter22 db'), `mysql --password=${redacted} db`);
    assert.equal(
      scrubber.scrub('docker run -e "NPM_TOKEN=abc123def" x'),
      `docker run -e "NPM_TOKEN=${redacted}" x`,
    );
  });

  it('redacts NAME=value whatever the value is made of, digits or not', () => {
    for (const line of [
      'GITHUB_TOKEN=abcdefghijkl',
      'DB_PASSWORD=correcthorse',
      'export OPENAI_API_KEY="plainwords"',
      'AWS_SECRET_ACCESS_KEY=onlyletters',
    ]) {
      const scrubbed = scrubber.scrub(line);
      assert.match(scrubbed, /=("?)\[REDACTED:secret-assignment\]\1$/, line);
    }
    // References and placeholders name where a secret comes from; they are not one.
    for (const line of ['GITHUB_TOKEN=$GH_TOKEN', 'DB_PASSWORD=changeme', 'API_KEY=<your-key>']) {
      assert.equal(scrubber.scrub(line), line);
    }
  });

  it('redacts values in .env files', () => {
    const env = 'PORT=8080\nSTRIPE_SECRET_KEY=whsec1234abcd\nDB_PASSWD=s3cret!pw\nLOG_LEVEL=info\n';
    assert.equal(
      scrubber.scrub(env),
      `PORT=8080\nSTRIPE_SECRET_KEY=${redacted}\nDB_PASSWD=${redacted}\nLOG_LEVEL=info\n`,
    );
  });

  it('redacts values in YAML', () => {
    const yaml = 'db:\n  password: s3cr3t-99  # prod\n  api_key: "abcd1234efgh"\n  user: app\n';
    assert.equal(
      scrubber.scrub(yaml),
      `db:\n  password: ${redacted}  # prod\n  api_key: "${redacted}"\n  user: app\n`,
    );
  });

  it('redacts values in JSON, also inside a JSON string', () => {
    assert.equal(
      scrubber.scrub('{"api_key": "abcd1234efgh", "client_secret":"x9y8z7w6", "name": "app"}'),
      `{"api_key": "${redacted}", "client_secret":"${redacted}", "name": "app"}`,
    );
    assert.equal(
      scrubber.scrub(String.raw`{"body": "{\"token\":\"abc123def\"}"}`),
      String.raw`{"body": "{\"token\":\"${redacted}\"}"}`,
    );
  });

  it('leaves empty values and references alone', () => {
    for (const text of [
      'DB_PASSWORD=',
      'DB_PASSWORD=""',
      'password:',
      'GITHUB_TOKEN=$GITHUB_TOKEN',
      'GITHUB_TOKEN="${GITHUB_TOKEN}"',
      'GITHUB_TOKEN=${GH_TOKEN:-fallback1}',
      'export TOKEN=$(gh auth token2)',
      'const apiKey = process.env.API_KEY_V2;',
      'API_KEY = os.environ["API_KEY_V2"]',
      'api_key: <your-api-key-1>',
      'password: "{{ vault_password_1 }}"',
      'password: %DB_PASSWORD_1%',
    ]) {
      assert.equal(scrubber.scrub(text), text);
    }
  });

  it('leaves ordinary code alone', () => {
    for (const text of [
      'interface Login { password: string; token?: string }',
      'const token = getToken();',
      'const token = scanner2.scan();',
      'PASSWORD_MIN_LENGTH = 8',
      'MAX_TOKENS=4096',
      'contextToken = parent2;',
      'const { contextToken: contextToken2, previousToken: previousToken2 } = tokens;',
      'const node = isImport(parent2) ? token : parent2;',
      "fastify.register(plugin, { secret: 'alpha' });",
      'password: z.string().min(6),',
      'if (token === undefined) token = 0;',
      'TOKEN_FILE=/run/secrets/token1',
      "'Lock-Token': 'urn:uuid:a515cfa4-5da4-22e1-f5b5-00a0451e6bf7'",
    ]) {
      assert.equal(scrubber.scrub(text), text);
    }
  });
});

describe('URL credentials', () => {
  it('keeps the scheme, the user and the host, and redacts only the password', () => {
    assert.equal(
      scrubber.scrub('DATABASE_URL=postgres://app:s3cret@db:5432/x?sslmode=require'),
      'DATABASE_URL=postgres://app:[REDACTED:url-credentials]@db:5432/x?sslmode=require',
    );
    assert.equal(
      scrubber.scrub(`git clone https://x-access-token:${FAKE.github}@github.com/o/r.git`),
      'git clone https://x-access-token:[REDACTED:url-credentials]@github.com/o/r.git',
    );
    assert.equal(
      scrubber.scrub('redis://:foobared99@cache:6379/0'),
      'redis://:[REDACTED:url-credentials]@cache:6379/0',
    );
  });

  it('takes a password up to the last @ of the authority', () => {
    assert.equal(
      scrubber.scrub('mysql://root:p@ss:w0rd@localhost/db'),
      'mysql://root:[REDACTED:url-credentials]@localhost/db',
    );
  });

  it('leaves URLs without a password, and references, alone', () => {
    for (const text of [
      'https://user@example.com/a',
      'https://example.com:8443/x@y',
      'https://user:$PASSWORD@host/',
      'https://user:${password}@host/',
      'mongodb://username:password@host:27017',
    ]) {
      assert.equal(scrubber.scrub(text), text);
    }
  });
});

describe('private keys', () => {
  const block = (newline: string) =>
    [FAKE.pemHeader, ...FAKE.pemBody, FAKE.pemFooter].join(newline);

  it('redacts a multi-line block from BEGIN to END, with LF or CRLF', () => {
    assert.equal(scrubber.scrub(`a\n${block('\n')}\nb`), 'a\n[REDACTED:private-key]\nb');
    assert.equal(scrubber.scrub(`a\r\n${block('\r\n')}\r\nb`), 'a\r\n[REDACTED:private-key]\r\nb');
  });

  it('redacts a block written with \\n escapes inside a JSON string', () => {
    const json = `{"type": "service_account", "private_key": "${block('\\n')}\\n", "id": 1}`;
    assert.equal(
      scrubber.scrub(json),
      '{"type": "service_account", "private_key": "[REDACTED:private-key]\\n", "id": 1}',
    );
  });

  it('redacts a block cut short before its END line', () => {
    const cut = [FAKE.pemHeader, ...FAKE.pemBody.slice(0, 2)].join('\n');
    assert.equal(
      scrubber.scrub(`$ head -3 id_rsa\n${cut}`),
      '$ head -3 id_rsa\n[REDACTED:private-key]',
    );
  });

  it('redacts other key types and leaves header strings in code alone', () => {
    const openssh = `-----BEGIN OPENSSH ${'PRIVATE KEY'}-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH ${'PRIVATE KEY'}-----`;
    assert.equal(scrubber.scrub(openssh), '[REDACTED:private-key]');
    const code = `const BEGIN = '${FAKE.pemHeader}';\nconst END = '${FAKE.pemFooter}';`;
    assert.equal(scrubber.scrub(code), code);
  });
});

describe('configured secrets', () => {
  it('redacts exact values wherever they appear, regex characters included', () => {
    const configured = new Scrubber({ secrets: ['pa$$(w0rd)+', 'plain-value-42'] });
    assert.equal(
      configured.scrub('a pa$$(w0rd)+ b plain-value-42c plain-value-4'),
      'a [REDACTED:configured-secret] b [REDACTED:configured-secret]c plain-value-4',
    );
  });

  it('redacts the longest of overlapping values whole', () => {
    const configured = new Scrubber({ secrets: ['abc-secret-1', 'abc-secret-1-longer'] });
    assert.equal(configured.scrub('x abc-secret-1-longer y'), 'x [REDACTED:configured-secret] y');
  });

  it('wins over the built-in patterns', () => {
    const configured = new Scrubber({ secrets: [FAKE.github] });
    assert.equal(
      configured.scrub(`GITHUB_TOKEN=${FAKE.github}`),
      'GITHUB_TOKEN=[REDACTED:configured-secret]',
    );
  });

  it('ignores empty values', () => {
    assert.equal(new Scrubber({ secrets: [''] }).scrub('text'), 'text');
  });
});

describe('patterns from configuration', () => {
  it('parses kind=regex and regex lines, skips blanks and comments, reads (?i)', () => {
    const patterns = parsePatternFile(
      '# internal tokens\n\nacme-token=acme_[0-9a-f]{16}\r\n  (?i)INTERNAL-[0-9]{6}  \nsession=sid:(?<secret>[a-z0-9]{12})\n',
    );
    assert.deepEqual(
      patterns.map(({ kind, pattern }) => [kind, pattern.source, pattern.flags]),
      [
        ['acme-token', 'acme_[0-9a-f]{16}', ''],
        ['custom', 'INTERNAL-[0-9]{6}', 'i'],
        ['session', 'sid:(?<secret>[a-z0-9]{12})', ''],
      ],
    );
    const configured = new Scrubber({ extraPatterns: patterns });
    assert.equal(
      configured.scrub('acme_0123456789abcdef internal-123456 sid:abcdef012345 sid:short'),
      '[REDACTED:acme-token] [REDACTED:custom] sid:[REDACTED:session] sid:short',
    );
  });

  it('runs added patterns after the built-in ones and with backreferences', () => {
    const configured = new Scrubber({
      extraPatterns: [
        { kind: 'quoted-code', pattern: /(['"])code-\d{4}\1/ },
        { kind: 'ticket', pattern: /TKT-\d{5}/g },
      ],
    });
    assert.equal(
      configured.scrub(`"code-1234" TKT-12345 ${FAKE.github} 'code-1234"`),
      `[REDACTED:quoted-code] [REDACTED:ticket] [REDACTED:github-token] 'code-1234"`,
    );
  });

  it('names the line of a pattern that does not compile', () => {
    assert.throws(
      () => parsePatternFile('# ok\ngood=abc\nbad=([a-z]+\n'),
      (error: Error) =>
        error.message.startsWith('scrub patterns line 3: ') &&
        /regular expression/i.test(error.message),
    );
  });

  it('rejects a pattern that matches the empty string, and an empty one', () => {
    assert.throws(() => parsePatternFile('x*'), /line 1: .*matches the empty string/);
    assert.throws(
      () => parsePatternFile('\n\nkind='),
      /line 3: the pattern after "kind=" is empty/,
    );
  });

  it('rejects a kind that cannot appear in a replacement', () => {
    assert.throws(
      () => new Scrubber({ extraPatterns: [{ kind: 'bad]kind', pattern: /x/ }] }),
      /scrub pattern kind "bad\]kind"/,
    );
  });
});

describe('idempotence', () => {
  const mixed = [
    `GITHUB_TOKEN=${FAKE.github}`,
    'postgres://app:s3cret@db:5432/x',
    `${FAKE.pemHeader}\n${FAKE.pemBody.join('\n')}\n${FAKE.pemFooter}`,
    `Authorization: Bearer ${FAKE.jwt}`,
    `{"password": "hunter22", "key": "${FAKE.google}"}`,
    `${FAKE.stripe} ${FAKE.anthropic} ${FAKE.slack} super-secret-99`,
  ].join('\n');

  it('gives the same text when scrubbing a scrubbed text again', () => {
    const configured = new Scrubber({
      secrets: ['super-secret-99'],
      extraPatterns: parsePatternFile('word=\\w{4,}'),
    });
    for (const s of [scrubber, configured]) {
      const once = s.scrub(mixed);
      assert.notEqual(once, mixed);
      assert.equal(s.scrub(once), once);
    }
  });

  it('never redacts a redaction token again', () => {
    const tokens =
      'GITHUB_TOKEN=[REDACTED:github-token] "password": "[REDACTED:x]" https://u:[REDACTED:url-credentials]@h';
    assert.equal(scrubber.scrub(tokens), tokens);
    const greedy = new Scrubber({ extraPatterns: parsePatternFile('any=[A-Z:-]{5,}') });
    assert.equal(greedy.scrub('[REDACTED:jwt] ABCDE'), '[REDACTED:jwt] [REDACTED:any]');
  });
});

describe('secret environment variables', () => {
  const cases: Array<[string, boolean]> = [
    ['GITHUB_TOKEN', true],
    ['token', true],
    ['NPM_TOKEN', true],
    ['DB_PASSWORD', true],
    ['db_passwd', true],
    ['CLIENT_SECRET', true],
    ['clientSecret', true],
    ['API_KEY', true],
    ['my-api-key', true],
    ['apiKey', true],
    ['SSH_PRIVATE_KEY', true],
    ['private-key', true],
    ['AWS_SECRET_ACCESS_KEY', true],
    ['STRIPE_SECRET_KEY', true],
    ['PATH', false],
    ['HOME', false],
    ['PASSWORD_MIN_LENGTH', false],
    ['TOKEN_FILE', false],
    ['TOKENIZER', false],
    ['SECRETS_DIR', false],
    ['MAX_TOKENS', false],
    ['AWS_ACCESS_KEY_ID', false],
    ['PUBLIC_KEY', false],
    ['SVC_LOG_LEVEL', false],
  ];
  for (const [name, expected] of cases) {
    it(`${expected ? 'takes' : 'does not take'} ${name} for a secret name`, () => {
      assert.equal(isSecretName(name), expected);
    });
  }

  const env: NodeJS.ProcessEnv = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/agent',
    LANG: 'C.UTF-8',
    GITHUB_TOKEN: FAKE.github,
    DB_PASSWORD: 'hunter22',
    OTHER_PASSWORD: 'hunter22',
    SVC_ADMIN_TOKEN: 'svc-admin-secret-1',
    SVC_LOG_LEVEL: 'debug',
    SHORT_TOKEN: 'abc',
    EMPTY_SECRET: '',
    UNSET_SECRET: undefined,
  };

  it('collects the values of secret-named variables, SVC_* ones included, once each', () => {
    assert.deepEqual(
      secretsFromEnv(env).sort(),
      [FAKE.github, 'hunter22', 'svc-admin-secret-1'].sort(),
    );
  });

  it('gives child processes the environment without SVC_* and secret-named variables', () => {
    const child = childEnvironment(env);
    assert.deepEqual(child, { PATH: '/usr/bin:/bin', HOME: '/home/agent', LANG: 'C.UTF-8' });
    assert.equal(env.GITHUB_TOKEN, FAKE.github, 'the given environment is not changed');
  });

  it('redacts the environment secrets in what a command prints', () => {
    const configured = new Scrubber({ secrets: secretsFromEnv(env) });
    assert.equal(
      configured.scrub('admin=svc-admin-secret-1 db=hunter22'),
      'admin=[REDACTED:configured-secret] db=[REDACTED:configured-secret]',
    );
  });
});

describe('ordinary source trees', () => {
  const root = resolve(import.meta.dirname, '../../..');
  const trees = ['node_modules/typescript/lib', 'node_modules/fastify', 'node_modules/zod'];
  const SOURCE = /\.(?:[cm]?[jt]s|json|md)$/;

  /**
   * Files in those trees that hold genuine secret shapes, which must stay redacted, with the kinds
   * of their redactions in order. Everything else must come out unchanged.
   */
  const GENUINE: Record<string, string[]> = {
    // zod's JWT test validates the well-known jwt.io sample, a real signed token.
    'node_modules/zod/src/v4/mini/tests/string.test.ts': ['jwt', 'jwt'],
    // zod's URL test parses an example URL with a user and a password in it.
    'node_modules/zod/src/v4/classic/tests/string.test.ts': ['url-credentials'],
    // fastify's TypeScript guide shows a curl call with password=Password123! in its query.
    'node_modules/fastify/docs/Reference/TypeScript.md': ['secret-assignment'],
  };

  function* sourceFiles(folder: string): Generator<string> {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) yield* sourceFiles(path);
      else if (entry.isFile() && SOURCE.test(entry.name)) yield path;
    }
  }

  it('changes nothing in typescript/lib, fastify and zod but their genuine secret shapes', () => {
    const changed: Record<string, string[]> = {};
    for (const tree of trees) {
      const folder = join(root, tree);
      assert.ok(existsSync(folder), `${tree} is installed`);
      let files = 0;
      for (const path of sourceFiles(folder)) {
        files++;
        const text = readFileSync(path, 'utf8');
        const scrubbed = scrubber.scrub(text);
        if (scrubbed === text) continue;
        changed[relative(root, path)] = [...scrubbed.matchAll(/\[REDACTED:([\w.-]+)\]/g)].map(
          (m) => m[1] ?? '',
        );
      }
      assert.ok(files > 0, `${tree} holds source files`);
    }
    assert.deepEqual(changed, GENUINE);
  });
});
