// Writes deploy/operator/ from @paddock/operator: the workspace ClusterRoles that the RoleBindings
// of every workspace refer to, the operator's own ClusterRole and leader-election Role, and the
// kustomization deploy/base includes. YAML files generation no longer produces are removed.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { operatorManifestFiles } from '@paddock/operator';

const root = resolve(import.meta.dirname, '..');
const dir = join(root, 'deploy', 'operator');
mkdirSync(dir, { recursive: true });

const files = operatorManifestFiles();
const names = new Set(files.map((file) => file.name));
for (const name of readdirSync(dir)) {
  if (name.endsWith('.yaml') && !names.has(name)) rmSync(join(dir, name));
}
for (const file of files) writeFileSync(join(dir, file.name), file.content);
console.log(`wrote ${files.length} files to ${relative(root, dir)}/`);
