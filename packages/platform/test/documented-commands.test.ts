import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import {
  claimPodAddressRange,
  freePort,
  start,
  startEmbeddedCluster,
  startOperator,
  tempDir,
  type EmbeddedCluster,
  type PodAddressRange,
  type Started,
} from '@paddock/testing';
import { LocalNode } from '../src/local-node.js';

/**
 * The commands the docs give, run as written against the embedded cluster, in the docs' order:
 * the README's and docs/kubernetes.md's from a copy of the clone, the install guide's from the
 * folder it lays out (`paddock/`, the clone; `my-paddock/`, the install's own overlay, written
 * from the guide's YAML; `my-agent/`, a copy of deploy/examples/agent). Every command must exit 0.
 */

const root = resolve(import.meta.dirname, '..', '..', '..');

/** Commands the docs give that cannot run here, each with why. */
const NOT_RUN: ReadonlyMap<string, string> = new Map([
  [
    'kubectl -n paddock-system rollout status deploy/paddock-operator deploy/paddock-dashboard',
    'waits for Deployments’ pods: the embedded cluster runs no Deployment controller (the ' +
      'operator runs beside it here, as a process)',
  ],
  ['kubectl delete ns <namespace>', 'a placeholder the reader fills in'],
]);

/** The embedded cluster's documented address, replaced by a free one so runs never collide. */
const DOCUMENTED_LISTEN = '127.0.0.1:6443';

interface Command {
  doc: string;
  text: string;
}

/**
 * The shell commands of a Markdown document: those of its ```sh blocks that mention kubectl or
 * the install's own folder, one per logical line (continuations joined, `for … done` kept whole,
 * comments dropped), and, with `inline`, code spans that begin with `kubectl apply`.
 */
function commandsOf(doc: string, markdown: string, inline = false): Command[] {
  const commands: Command[] = [];
  const blocks = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  for (const block of blocks) {
    if (!/\bkubectl\b|my-paddock\//.test(block)) continue;
    let pending = '';
    for (const raw of block.split('\n')) {
      const line = raw.replace(/\s+#\s.*$/, '').trimEnd();
      if (line.trim() === '' && pending === '') continue;
      pending += (pending === '' ? '' : '\n') + line;
      if (line.endsWith('\\')) continue;
      if (/^for\s/.test(pending) && !/\ndone$/.test(pending)) continue;
      commands.push({ doc, text: pending.replace(/\\\n\s*/g, '') });
      pending = '';
    }
  }
  if (inline) {
    for (const span of markdown.matchAll(/`(kubectl apply [^`]+)`/g)) {
      commands.push({ doc, text: span[1]! });
    }
  }
  return commands;
}

/** A YAML block of the guide whose first line names the file it is (`# my-paddock/...`). */
function filesOfGuide(markdown: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const m of markdown.matchAll(/^```yaml\n# (my-paddock\/[\w.-]+)\n([\s\S]*?)^```$/gm)) {
    files.set(m[1]!, m[2]!);
  }
  return files;
}

/** The guide's secretGenerator for PostgreSQL, merged into the overlay as it tells the reader. */
function withPostgresSecret(markdown: string, kustomization: string): string {
  const block = [...markdown.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)]
    .map((m) => m[1]!)
    .find((yaml) => yaml.includes('postgres.env'));
  assert.ok(block, 'the guide has the PostgreSQL secret generator');
  const own = parse(kustomization) as { secretGenerator: unknown[] };
  own.secretGenerator.push(...(parse(block) as { secretGenerator: unknown[] }).secretGenerator);
  return stringify(own);
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function shell(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', command], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** A clone's copy: the repository's entries as links, without its data folder. */
async function cloneCopy(at: string): Promise<string> {
  await mkdir(at);
  for (const entry of await readdir(root)) {
    if (entry !== 'data' && entry !== '.git') await symlink(join(root, entry), join(at, entry));
  }
  return at;
}

/** Runs commands in order; a command ending in `&` runs in the background until the end. */
class Session {
  readonly background: Started[] = [];
  constructor(
    private readonly cwd: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly afterCommand: (text: string) => Promise<void> = async () => {},
  ) {}

  async run(commands: Command[]): Promise<void> {
    for (const { doc, text } of commands) {
      if (NOT_RUN.has(text)) continue;
      if (text.endsWith('&')) {
        const server = start('bash', ['-c', `exec ${text.slice(0, -1)}`], {
          cwd: this.cwd,
          env: this.env,
          detached: true,
        });
        this.background.push(server);
        await server.waitForOutput(/"addr":"127\.0\.0\.1:\d+"/, 60_000);
        continue;
      }
      const ran = await shell(text, this.cwd, this.env);
      assert.equal(ran.code, 0, `${doc}: \`${text}\` exited ${ran.code}:\n${ran.stderr}`);
      await this.afterCommand(text);
    }
  }

  async stop(): Promise<void> {
    for (const server of this.background) {
      if (server.child.pid !== undefined) process.kill(-server.child.pid, 'SIGINT');
      await server.exited;
    }
  }
}

describe('the commands the docs give', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let docs: Record<'readme' | 'kubernetes' | 'install', string>;

  before(async () => {
    dir = await tempDir('paddock-doc-commands-');
    docs = {
      readme: await readFile(join(root, 'README.md'), 'utf8'),
      kubernetes: await readFile(join(root, 'docs', 'kubernetes.md'), 'utf8'),
      install: await readFile(join(root, 'docs', 'install', 'kubernetes.md'), 'utf8'),
    };
  });
  after(async () => {
    await dir?.remove();
  });

  it('are found, and those that cannot run here are still in the docs', () => {
    const all = [
      ...commandsOf('README.md', docs.readme, true),
      ...commandsOf('docs/kubernetes.md', docs.kubernetes),
      ...commandsOf('docs/install/kubernetes.md', docs.install),
    ].map((c) => c.text);
    assert.ok(all.includes('kubectl apply -f deploy/crds/'));
    assert.ok(all.some((c) => c.startsWith('for ws in ') && c.endsWith('done')));
    for (const command of NOT_RUN.keys()) assert.ok(all.includes(command), command);
  });

  describe('README.md and docs/kubernetes.md, from a clone', () => {
    let cluster: EmbeddedCluster;
    let operator: Started | undefined;
    let session: Session;

    before(async () => {
      cluster = await startEmbeddedCluster();
      const home = join(dir.path, 'home-docs');
      await mkdir(home);
      const clone = await cloneCopy(join(dir.path, 'clone'));
      const env = { PATH: process.env.PATH, HOME: home, KUBECONFIG: cluster.kubeconfig };
      // The sample workspace needs the operator to make its namespace: it starts once the CRDs are in.
      session = new Session(clone, env, async (text) => {
        if (operator === undefined && /^kubectl apply -[fk] deploy\/crds\/$/.test(text))
          operator = await startOperator(cluster.kubeconfig);
      });
    });
    after(async () => {
      await session?.stop();
      await operator?.stop();
      await cluster?.stop();
    });

    it('install the CRDs and the samples, and run the embedded cluster on its own', async () => {
      const port = await freePort();
      const commands = [
        ...commandsOf('README.md', docs.readme, true),
        ...commandsOf('docs/kubernetes.md', docs.kubernetes),
      ].map((c) => ({ ...c, text: c.text.replace(DOCUMENTED_LISTEN, `127.0.0.1:${port}`) }));
      assert.ok(commands.some((c) => c.text.startsWith('npx paddock-cluster ')));
      await session.run(commands);
    });
  });

  describe('docs/install/kubernetes.md, from the folder it lays out', () => {
    let cluster: EmbeddedCluster;
    let operator: Started | undefined;
    let node: LocalNode | undefined;
    let range: PodAddressRange | undefined;
    let session: Session;

    before(async () => {
      cluster = await startEmbeddedCluster();
      const home = join(dir.path, 'home-install');
      const work = join(dir.path, 'install');
      await mkdir(home);
      await mkdir(join(work, 'my-paddock'), { recursive: true });
      await cloneCopy(join(work, 'paddock'));
      for (const [file, content] of filesOfGuide(docs.install)) {
        const text =
          file === 'my-paddock/kustomization.yaml'
            ? withPostgresSecret(docs.install, content)
            : content;
        await writeFile(join(work, file), text);
      }
      await cp(join(root, 'deploy', 'examples', 'agent'), join(work, 'my-agent'), {
        recursive: true,
      });
      range = await claimPodAddressRange();
      const env = { PATH: process.env.PATH, HOME: home, KUBECONFIG: cluster.kubeconfig };
      // What the install's Deployments would run: the operator, and a node for the agent's pods.
      session = new Session(work, env, async (text) => {
        if (operator !== undefined || text !== 'kubectl apply -k my-paddock/') return;
        operator = await startOperator(cluster.kubeconfig);
        node = new LocalNode({
          kube: cluster.kube,
          dataDir: join(dir.path, 'node'),
          addresses: range!,
          backOff: { initialMs: 300, maxMs: 600, resetAfterMs: 60_000 },
        });
        await node.start();
      });
    });
    after(async () => {
      await session?.stop();
      await node?.stop();
      await operator?.stop();
      await cluster?.stop();
      await range?.release();
    });

    it('install, make a workspace and an agent, and uninstall', async () => {
      const commands = commandsOf('docs/install/kubernetes.md', docs.install);
      assert.ok(commands.some((c) => c.text === 'kubectl apply -k my-paddock/'));
      await session.run(commands);
    });
  });
});
