// Writes deploy/crds/ from the kinds' schemas in @paddock/kube: one CustomResourceDefinition per
// kind and the kustomization that lists them. YAML files generation no longer produces are removed.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { crdFiles } from '@paddock/kube';

const root = resolve(import.meta.dirname, '..');
const dir = join(root, 'deploy', 'crds');
mkdirSync(dir, { recursive: true });

const files = crdFiles();
const names = new Set(files.map((file) => file.name));
for (const name of readdirSync(dir)) {
  if ((name.endsWith('.yaml') || name === 'Kustomization') && !names.has(name))
    rmSync(join(dir, name));
}
for (const file of files) writeFileSync(join(dir, file.name), file.content);
console.log(`wrote ${files.length} files to ${relative(root, dir)}/`);
