// Run as its own process (a fresh module cache): starts the SSH server, then says on stdout, as
// one JSON line, whether ssh2 was loaded after the start, whether the first connection got the
// server's identification, and whether ssh2 was loaded then.
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { once } from 'node:events';
import { silentLogger } from '@paddock/common';
import { tempDir } from '@paddock/testing';
import { SshKeyRegistry } from '../../src/ssh/keys.js';
import { startSshServer } from '../../src/ssh/server.js';
import { Workspace } from '../../src/workspace/containment.js';

const ssh2Loaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((p) => p.includes('/node_modules/ssh2/'));

const root = await tempDir('paddock-ssh-idle-');
const server = await startSshServer({
  workspace: await Workspace.open(root.path),
  keys: new SshKeyRegistry(),
  childEnv: {},
  logger: silentLogger(),
  audit: () => {},
});
const atStart = ssh2Loaded();
const socket = connect(server.port, '127.0.0.1');
const [banner] = (await once(socket.setEncoding('latin1'), 'data')) as [string];
socket.destroy();
process.stdout.write(
  `${JSON.stringify({ atStart, banner: banner.split('\r\n')[0], afterConnection: ssh2Loaded(), hostKeys: server.hostKeys })}\n`,
);
await server.close();
await root.remove();
