import { createRequire } from 'node:module';
import type * as NodePtyModule from '@lydell/node-pty';

type NodePty = typeof NodePtyModule;

// node-pty (a native addon, about 3 MiB once loaded) is required on the first terminal (exec or
// SSH), not at start: most sandboxes never open one.
const requireHere = createRequire(import.meta.url);
let pty: NodePty | undefined;

/** node-pty's spawn, loading node-pty on the first call. */
export const spawnPty: NodePty['spawn'] = (file, args, options) =>
  (pty ??= requireHere('@lydell/node-pty') as NodePty).spawn(file, args, options);
