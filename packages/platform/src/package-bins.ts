import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The command file of a workspace package's bin. */
export function binOf(pkg: string, command: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = require(manifest) as { bin: Record<string, string> };
  return join(dirname(manifest), bin[command]!);
}
