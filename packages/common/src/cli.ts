import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from './config.js';

/** A mistake on the command line: reported in one line with the usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Runs a command's main function. Configuration and usage mistakes exit 2 with their report; any
 * other failure exits 1 with its message. A successful main leaves the process running for as long
 * as it has work (servers keep it alive).
 */
export function runMain(main: () => Promise<void>, usage?: string): void {
  main().catch((err: unknown) => {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\n${usage ? `\n${usage}\n` : ''}`);
      process.exit(2);
    }
    process.stderr.write(
      `fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  });
}

export interface PackageInfo {
  name: string;
  version: string;
  /** The package's folder, for files it ships beside its code. */
  root: string;
}

/** The nearest package.json above a module, read once at start (works from src and from dist). */
export function packageInfo(moduleUrl: string): PackageInfo {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    try {
      const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
      };
      return { name: json.name, version: json.version, root: dir };
    } catch (err) {
      const parent = dirname(dir);
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || parent === dir) throw err;
      dir = parent;
    }
  }
}

/**
 * The value of the one option a command takes (such as `--kubeconfig FILE`), or undefined when it
 * is absent; any other argument is a UsageError.
 */
export function onlyOption(
  argv: readonly string[],
  option: string,
  what: string,
): string | undefined {
  const index = argv.indexOf(option);
  if (index === -1) {
    if (argv.length > 0) throw new UsageError(`unknown argument "${argv[0]}"`);
    return undefined;
  }
  const value = argv[index + 1];
  if (value === undefined || value.startsWith('-')) throw new UsageError(`${option} needs ${what}`);
  const rest = argv.filter((_, i) => i !== index && i !== index + 1);
  if (rest.length > 0) throw new UsageError(`unknown argument "${rest[0]}"`);
  return value;
}
