import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A program the tests need from the operating system, and the Debian package that provides it. */
export interface Prerequisite {
  what: string;
  debianPackage: string;
  found: () => boolean;
}

export function onPath(command: string): boolean {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .some((dir) => dir !== '' && existsSync(join(dir, command)));
}

/** The folder of the newest installed PostgreSQL server binaries (initdb, pg_ctl, postgres). */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

export const CHROMIUM_PATH = '/usr/bin/chromium';
/** Debian's Python, which the official Kubernetes client (python3-kubernetes) installs into. */
export const DEBIAN_PYTHON = '/usr/bin/python3';

/** Whether Debian's Python can import the module. */
function pythonHas(module: string): boolean {
  if (!existsSync(DEBIAN_PYTHON)) return false;
  return spawnSync(DEBIAN_PYTHON, ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0;
}

export const PREREQUISITES: readonly Prerequisite[] = [
  { what: 'Chromium', debianPackage: 'chromium', found: () => existsSync(CHROMIUM_PATH) },
  {
    what: 'PostgreSQL server',
    debianPackage: 'postgresql',
    found: () => postgresBinDir() !== undefined,
  },
  { what: 'ripgrep', debianPackage: 'ripgrep', found: () => onPath('rg') },
  {
    what: 'OpenSSH client',
    debianPackage: 'openssh-client',
    found: () => ['ssh', 'scp', 'sftp', 'ssh-keygen'].every(onPath),
  },
  { what: 'unzip', debianPackage: 'unzip', found: () => onPath('unzip') },
  { what: 'kubectl', debianPackage: 'kubernetes-client', found: () => onPath('kubectl') },
  { what: 'zip', debianPackage: 'zip', found: () => onPath('zip') },
  { what: 'rsync', debianPackage: 'rsync', found: () => onPath('rsync') },
  {
    what: 'the Kubernetes Python client',
    debianPackage: 'python3-kubernetes',
    found: () => pythonHas('kubernetes'),
  },
];

export function missingPrerequisites(list = PREREQUISITES): Prerequisite[] {
  return list.filter((p) => !p.found());
}

/**
 * Makes sure every prerequisite is there: installs the missing ones with apt-get when running as
 * root on a Debian system, otherwise returns the one-line instruction to give the person.
 */
export function ensurePrerequisites(
  log: (line: string) => void,
): { ok: true } | { ok: false; instruction: string } {
  let missing = missingPrerequisites();
  if (missing.length === 0) return { ok: true };
  const packages = missing.map((p) => p.debianPackage);
  const canInstall = process.getuid?.() === 0 && onPath('apt-get');
  if (canInstall) {
    log(`installing missing system packages: ${packages.join(' ')}`);
    const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-q'], { stdio: 'ignore', env: aptEnv });
    spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...packages], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: aptEnv,
    });
    missing = missingPrerequisites();
    if (missing.length === 0) return { ok: true };
  }
  return {
    ok: false,
    instruction: `missing ${missing.map((p) => p.what).join(', ')}: run "sudo apt-get install ${missing
      .map((p) => p.debianPackage)
      .join(' ')}" and try again`,
  };
}
