// `npm run bench -- <name>`: runs bench/<name>.ts, which starts what it measures, drives load from
// another process, prints its figures and exits. Without a name, lists the benchmarks.
// This process runs with `--heap-growing-percent=150` (package.json): where it sends or sinks a
// stream itself (the tunnels, their direct baseline), its read buffers would otherwise start a
// full collection of its own heap every 16 MB in some runs and not others (docs/decisions/0039),
// and the figures would measure this process rather than the one under test.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const names = readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => f.slice(0, -3))
  .sort();
const name = process.argv[2];
if (name === undefined || !names.includes(name)) {
  console.error(`${name ? `unknown benchmark "${name}". ` : ''}Usage: npm run bench -- <name>`);
  console.error(`benchmarks: ${names.join(', ')}`);
  process.exit(name === undefined ? 0 : 2);
}
await import(pathToFileURL(join(import.meta.dirname, `${name}.ts`)).href);
