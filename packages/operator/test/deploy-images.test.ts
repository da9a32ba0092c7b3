import { AGENT_NODE_FLAGS, SANDBOX_NODE_FLAGS } from '@paddock/common';
import { DASHBOARD_ENV, DASHBOARD_NODE_FLAGS } from '@paddock/dashboard/shared';
import { OPERATOR_NODE_FLAGS } from '../src/node-flags.js';
// A lint of the service images' Dockerfile (deploy/images/Dockerfile, one target per service) and of
// .dockerignore, since no container engine runs here: pinned bases, multi-stage builds that install
// production dependencies of the service's own workspaces only, a non-root numeric user, no secrets.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';

const root = resolve(import.meta.dirname, '..', '..', '..');

/**
 * Each image: its target (the workspace it serves), its command and its ports, and the other
 * workspaces whose commands it ships (the agent loop runs from the sandbox's image).
 */
const IMAGES = [
  { service: 'operator', bin: 'paddock-operator', ports: ['8081'], also: [] },
  { service: 'dashboard', bin: 'paddock-dashboard', ports: ['3000'], also: [] },
  { service: 'sandbox', bin: 'paddock-sandbox', ports: ['7070', '7071'], also: ['agent'] },
] as const;

interface Instruction {
  keyword: string;
  args: string;
}

interface Stage {
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** A target and what it is built from: its stage, the stages it starts from or copies from. */
interface Target {
  /** The stages that build the target, in the file's order; the target's own stage last. */
  stages: Stage[];
  /** The target stage's instructions, after those of the stages it starts from. */
  final: Instruction[];
  /** The image the target stage starts from, itself or through the stages it starts from. */
  image: string;
}

/** The instructions of a Dockerfile: comments dropped, continued lines joined. */
function instructions(text: string): Instruction[] {
  const logical: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && current === '')) continue;
    current += `${line.replace(/\\$/, '')} `;
    if (!line.endsWith('\\')) {
      logical.push(current.trim());
      current = '';
    }
  }
  if (current.trim() !== '') logical.push(current.trim());
  return logical
    .filter((line) => line !== '')
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

function stages(text: string): Stage[] {
  const found: Stage[] = [];
  for (const instruction of instructions(text)) {
    if (instruction.keyword === 'FROM') {
      const words = instruction.args.split(/\s+/).filter((w) => !w.startsWith('--'));
      const as = words.findIndex((w) => w.toUpperCase() === 'AS');
      found.push({
        from: words[0] ?? '',
        name: as >= 0 ? words[as + 1] : undefined,
        instructions: [],
      });
    } else {
      found.at(-1)?.instructions.push(instruction);
    }
  }
  return found;
}

/**
 * The stages a target needs, as a builder that skips unused stages (BuildKit) runs them; without a
 * name, the whole file with its last stage as the target.
 */
function targetOf(all: Stage[], name?: string): Target {
  const index = name === undefined ? all.length - 1 : all.findIndex((s) => s.name === name);
  /** The stage a FROM or COPY --from of stage i names, if it names one: -1 for an image. */
  const named = (i: number, ref: string) => all.slice(0, i).findLastIndex((s) => s.name === ref);
  const needed = new Set<number>();
  const visit = (i: number) => {
    const stage = all[i];
    if (stage === undefined || needed.has(i)) return;
    needed.add(i);
    visit(named(i, stage.from));
    for (const { keyword, args } of stage.instructions) {
      const from = keyword === 'COPY' ? /--from=(\S+)/.exec(args)?.[1] : undefined;
      if (from !== undefined) visit(named(i, from));
    }
  };
  // Without a target, a build runs every stage up to the last.
  if (name === undefined) all.forEach((_, i) => needed.add(i));
  else visit(index);
  const final: Instruction[] = [];
  let image = '';
  for (let i = index; i >= 0; i = named(i, image)) {
    final.unshift(...all[i]!.instructions);
    image = all[i]!.from;
  }
  return { stages: all.filter((_, i) => needed.has(i)), final, image };
}

const SECRET_NAME = /PASSWORD|PASSWD|SECRET|TOKEN|KEY|CREDENTIAL|AUTH/i;
const SECRET_FILE =
  /(^|\/)(\.env(\.[^\s/]*)?|\.npmrc|id_[a-z0-9]+|[^\s/]*\.(pem|key|p12|pfx)|kubeconfig)(\s|$)/i;

/** Every problem the lint finds in one target of a Dockerfile (by default its last), as sentences. */
function lint(text: string, name?: string): string[] {
  const problems: string[] = [];
  const { stages: all, final } = targetOf(stages(text), name);
  if (all.length < 2) problems.push('not multi-stage: build in one stage, run in another');
  const names = new Set<string>();
  for (const stage of all) {
    if (!names.has(stage.from)) {
      // An image of a registry: a tag with an exact version (or a digest), never latest.
      const match = /^(?<image>[^:@\s]+)(?::(?<tag>[^@\s]+))?(?:@sha256:[0-9a-f]{64})?$/.exec(
        stage.from,
      );
      const tag = match?.groups?.tag;
      const digest = stage.from.includes('@sha256:');
      if (!digest && (tag === undefined || !/^v?\d+\.\d+\.\d+([-.][\w.-]+)?$/.test(tag))) {
        problems.push(`FROM ${stage.from}: pin an exact version tag (not latest, not a major)`);
      }
    }
    if (stage.name !== undefined) names.add(stage.name);
    for (const { keyword, args } of stage.instructions) {
      if (keyword === 'ARG' || keyword === 'ENV') {
        const pairs =
          keyword === 'ENV' && !args.includes('=')
            ? [args.split(/\s+/, 1)[0] ?? '']
            : (args.match(/[A-Za-z_][A-Za-z0-9_]*=/g)?.map((p) => p.slice(0, -1)) ?? []);
        for (const name of pairs) {
          if (SECRET_NAME.test(name)) problems.push(`${keyword} ${name}: no secret in the image`);
        }
      }
      if ((keyword === 'COPY' || keyword === 'ADD') && SECRET_FILE.test(args)) {
        problems.push(`${keyword} ${args}: no secret file in the image`);
      }
    }
  }
  if (all.length > 0) {
    const user = final.filter((i) => i.keyword === 'USER').at(-1)?.args;
    if (user === undefined) problems.push('the final stage sets no USER');
    else if (!/^\d+(:\d+)?$/.test(user)) problems.push(`USER ${user}: a numeric uid`);
    else if (Number(user.split(':')[0]) === 0) problems.push('USER 0: not root');
    for (const { keyword, args } of final) {
      if (keyword !== 'RUN') continue;
      const installs = /\bnpm\s+(install|i|ci|add)\b/.test(args) || /\byarn\b|\bpnpm\b/.test(args);
      if (installs && !/--omit[= ]dev/.test(args)) {
        problems.push(`RUN ${args}: the final stage installs no dev dependencies`);
      }
    }
  }
  return problems;
}

const DOCKERFILE = readFileSync(join(root, 'deploy', 'images', 'Dockerfile'), 'utf8');

interface PackageJson {
  name: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
}

function packageJson(folder: string): PackageJson {
  return JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as PackageJson;
}

/** The workspace folders packages need at run time, themselves included. */
function workspaceClosure(...folders: string[]): string[] {
  const byName = new Map(
    (packageJson('.').workspaces ?? []).map((w) => [packageJson(w).name, w] as const),
  );
  const seen = new Set<string>();
  const visit = (w: string) => {
    if (seen.has(w)) return;
    seen.add(w);
    for (const dep of Object.keys(packageJson(w).dependencies ?? {})) {
      const local = byName.get(dep);
      if (local !== undefined) visit(local);
    }
  };
  folders.forEach(visit);
  return [...seen].sort();
}

describe('the lint of Dockerfiles', () => {
  it('refuses floating bases, root, secrets, single stages and dev installs at run time', () => {
    const bad = [
      'FROM node:latest',
      'ARG NPM_TOKEN=abc',
      'ENV DB_PASSWORD=hunter2 PORT=1',
      'COPY .env /app/.env',
      'COPY certs/server.key /app/',
      'RUN npm ci',
      'USER root',
    ].join('\n');
    assert.deepEqual(lint(bad), [
      'not multi-stage: build in one stage, run in another',
      'FROM node:latest: pin an exact version tag (not latest, not a major)',
      'ARG NPM_TOKEN: no secret in the image',
      'ENV DB_PASSWORD: no secret in the image',
      'COPY .env /app/.env: no secret file in the image',
      'COPY certs/server.key /app/: no secret file in the image',
      'USER root: a numeric uid',
      'RUN npm ci: the final stage installs no dev dependencies',
    ]);
    assert.deepEqual(lint('FROM node:20 AS build\nRUN true\nFROM node:20-slim\nUSER 0'), [
      'FROM node:20: pin an exact version tag (not latest, not a major)',
      'FROM node:20-slim: pin an exact version tag (not latest, not a major)',
      'USER 0: not root',
    ]);
    assert.deepEqual(lint('FROM a:1.2.3 AS b\nRUN x \\\n  && y\nFROM b\nUSER 10001:10001'), []);
  });

  it('checks a target with the stages it starts from and copies from, and no other', () => {
    const text = [
      'FROM node:1.2.3 AS build',
      'FROM node:latest AS unused',
      'FROM node:1.2.3-slim AS runtime',
      'USER 10001:10001',
      'FROM runtime AS good',
      'COPY --from=build /a /a',
      'FROM node:1.2.3-slim AS rootful',
      'COPY --from=build /a /a',
    ].join('\n');
    assert.deepEqual(lint(text, 'good'), []);
    assert.deepEqual(lint(text, 'rootful'), ['the final stage sets no USER']);
    assert.deepEqual(lint(text, 'unused'), [
      'not multi-stage: build in one stage, run in another',
      'FROM node:latest: pin an exact version tag (not latest, not a major)',
      'the final stage sets no USER',
    ]);
  });
});

describe('the service images (deploy/images/Dockerfile)', () => {
  for (const { service, bin, ports, also } of IMAGES) {
    describe(service, () => {
      const { stages: all, final, image } = targetOf(stages(DOCKERFILE), service);
      const finalOf = (keyword: string) =>
        final.filter((i) => i.keyword === keyword).map((i) => i.args);

      it('is a target of its own, and passes the lint', () => {
        assert.equal(all.at(-1)?.name, service);
        assert.deepEqual(lint(DOCKERFILE, service), []);
      });

      it('builds everything in a build stage with npm ci and npm run build, and runs on a slim image', () => {
        const build = all[0]!;
        assert.ok(
          build.instructions.some(
            (i) => i.keyword === 'RUN' && /npm ci && npm run build/.test(i.args),
          ),
        );
        const bases = all.map((s) => s.from).filter((from) => !all.some((s) => s.name === from));
        assert.match(image, /^node:\d+\.\d+\.\d+-bookworm-slim$/);
        // The same Node.js release in every stage.
        assert.equal(new Set(bases.map((from) => /^node:(\d+\.\d+\.\d+)/.exec(from)?.[1])).size, 1);
      });

      it('installs the production dependencies of its own workspaces only', () => {
        const folder = `packages/${service}`;
        const install = all
          .flatMap((s) => s.instructions)
          .find((i) => i.keyword === 'RUN' && /npm ci --omit=dev/.test(i.args));
        assert.ok(install, 'npm ci --omit=dev');
        for (const workspace of [folder, ...also.map((w) => `packages/${w}`)]) {
          assert.match(install.args, new RegExp(`--workspace=${workspace}(\\s|$)`));
        }
        // npm checks every workspace's manifest against the lockfile: all of them are copied.
        const copied = all
          .flatMap((s) => s.instructions)
          .filter((i) => i.keyword === 'COPY')
          .map((i) => /^(packages\/[\w-]+)\/package\.json /.exec(i.args)?.[1])
          .filter((w) => w !== undefined)
          .sort();
        assert.deepEqual(copied, [...(packageJson('.').workspaces ?? [])].sort());
        // The final stage holds the workspaces the service needs at run time, and no other.
        const shipped = finalOf('COPY')
          .map((args) => /\/app\/(packages\/[\w-]+) /.exec(args)?.[1])
          .filter((w) => w !== undefined)
          .sort();
        assert.deepEqual(shipped, workspaceClosure(folder, ...also.map((w) => `packages/${w}`)));
      });

      it(`runs ${bin} as a numeric non-root user, exposes its ports and checks its health`, () => {
        const entrypoint = JSON.parse(finalOf('ENTRYPOINT').at(-1) ?? '[]') as string[];
        assert.ok(
          entrypoint.includes(`/app/packages/${service}/bin/${bin}.js`),
          entrypoint.join(' '),
        );
        assert.ok(existsSync(join(root, 'packages', service, 'bin', `${bin}.js`)));
        if (service === 'dashboard') {
          assert.deepEqual(entrypoint.slice(1, -1), [...DASHBOARD_NODE_FLAGS]);
          // The image sets what every other start of the dashboard sets.
          assert.equal(
            finalOf('ENV').at(-1),
            Object.entries(DASHBOARD_ENV)
              .map(([name, value]) => `${name}=${value}`)
              .join(' '),
          );
        }
        if (service === 'operator') {
          assert.deepEqual(entrypoint.slice(1, -1), [...OPERATOR_NODE_FLAGS]);
        }
        if (service === 'sandbox') {
          // The pod's process runs with the sandbox's flags, between node and the bin.
          const node = entrypoint.indexOf('node');
          assert.deepEqual(entrypoint.slice(node + 1, -1), [...SANDBOX_NODE_FLAGS]);
        }
        assert.deepEqual(finalOf('EXPOSE').join(' ').split(/\s+/), [...ports]);
        assert.match(finalOf('HEALTHCHECK').at(-1) ?? '', /\/healthz/);
        assert.match(finalOf('USER').at(-1) ?? '', /^[1-9]\d*:[1-9]\d*$/);
      });
    });
  }

  it('have tools the sandbox shells out to in its runtime image: bash, git, ripgrep', () => {
    const { final } = targetOf(stages(DOCKERFILE), 'sandbox');
    const apt = final.find((i) => /apt-get install/.test(i.args))?.args ?? '';
    for (const tool of ['bash', 'git', 'ripgrep', 'procps', 'tini']) {
      assert.match(apt, new RegExp(`\\b${tool}\\b`));
    }
  });

  it('has paddock-agent on the PATH of the sandbox image, the agent container’s command', () => {
    const { final } = targetOf(stages(DOCKERFILE), 'sandbox');
    assert.ok(
      final.some(
        (i) =>
          i.keyword === 'RUN' &&
          i.args.includes(
            `exec node ${AGENT_NODE_FLAGS.join(' ')} /app/packages/agent/bin/paddock-agent.js "$@"`,
          ) &&
          i.args.includes('> /usr/local/bin/paddock-agent') &&
          i.args.includes('chmod 755 /usr/local/bin/paddock-agent'),
      ),
    );
    assert.ok(existsSync(join(root, 'packages', 'agent', 'bin', 'paddock-agent.js')));
  });

  it('has paddock-dashboard on the PATH of the dashboard image, for its users command', () => {
    const { final } = targetOf(stages(DOCKERFILE), 'dashboard');
    assert.ok(
      final.some(
        (i) =>
          i.keyword === 'RUN' &&
          i.args ===
            'ln -s /app/packages/dashboard/bin/paddock-dashboard.js /usr/local/bin/paddock-dashboard',
      ),
    );
  });

  it('leave out of the build context what must not go in: .dockerignore', () => {
    const entries = readFileSync(join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    for (const required of ['.git', 'data', 'test-artifacts']) {
      assert.ok(entries.includes(required), `.dockerignore: ${required}`);
    }
    assert.ok(
      entries.some((e) => /^(\*\*\/)?node_modules$/.test(e)),
      '.dockerignore: node_modules',
    );
    assert.ok(
      entries.some((e) => /^(\*\*\/)?\.env$/.test(e)),
      '.dockerignore: .env files',
    );
  });
});
