// `npm run bench -- <name>`: runs bench/<name>.ts, which starts what it measures, drives load from
// another process, prints its figures and exits. Without a name, lists the benchmarks.
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
