import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  chmod,
  mkdir,
  readdir,
  readFile,
  stat,
  statfs,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '@paddock/testing';
import ssh2, { type SFTPWrapper } from 'ssh2';
import { folderMode, mountFlags, SFTP_EXTENSIONS } from '../src/ssh/sftp-extensions.js';
import {
  extendedReplyPacket,
  isBareVersionPacket,
  readStrings,
  statvfsBody,
  STATVFS_NO_SUID,
  STATVFS_READ_ONLY,
  versionPacket,
} from '../src/ssh/sftp-wire.js';
import { clientOptions, keygen, run, sftpBatch } from './support/openssh.js';
import { as, startApiSandbox, type RunningApiSandbox } from './support/sandbox.js';

/** Strings as SFTP writes them: uint32 length, then the bytes. */
function strings(...values: string[]): Buffer {
  return Buffer.concat(
    values.map((value) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(Buffer.byteLength(value));
      return Buffer.concat([length, Buffer.from(value)]);
    }),
  );
}

describe('SFTP packets the server writes itself', () => {
  it('announces each extension with its version in the VERSION hello', () => {
    const bare = versionPacket([]);
    assert.deepEqual([...bare], [0, 0, 0, 5, 2, 0, 0, 0, 3]);
    assert.ok(isBareVersionPacket(bare));
    const hello = versionPacket(SFTP_EXTENSIONS);
    assert.ok(!isBareVersionPacket(hello));
    assert.equal(hello.readUInt32BE(0), hello.length - 4);
    assert.equal(hello[4], 2);
    assert.equal(hello.readUInt32BE(5), 3);
    const pairs = readStrings(hello.subarray(9), SFTP_EXTENSIONS.length * 2)!.map(String);
    assert.deepEqual(pairs, [
      'posix-rename@openssh.com',
      '1',
      'statvfs@openssh.com',
      '2',
      'fstatvfs@openssh.com',
      '2',
      'fsync@openssh.com',
      '1',
    ]);
  });

  it('frames an EXTENDED_REPLY with the request id', () => {
    const reply = extendedReplyPacket(0x01020304, Buffer.from([9, 8]));
    assert.deepEqual([...reply], [0, 0, 0, 7, 201, 1, 2, 3, 4, 9, 8]);
  });

  it('reads the strings of an extended request, and nothing from a truncated one', () => {
    const cases: [Buffer | undefined, number, string[] | undefined][] = [
      [strings('a/b', 'c'), 2, ['a/b', 'c']],
      [strings('only'), 1, ['only']],
      [strings('', 'x'), 2, ['', 'x']],
      [strings('one'), 2, undefined],
      [strings('cut').subarray(0, 5), 1, undefined],
      [Buffer.from([0, 0]), 1, undefined],
      [undefined, 1, undefined],
      [undefined, 0, []],
    ];
    for (const [data, count, expected] of cases) {
      assert.deepEqual(
        readStrings(data, count)?.map(String),
        expected,
        `${count} of ${data?.toString('hex')}`,
      );
    }
  });

  it('writes the statvfs figures in the order of OpenSSH’s PROTOCOL', () => {
    const body = statvfsBody({
      blockSize: 4096n,
      blocks: 1000n,
      freeBlocks: 600n,
      availableBlocks: 500n,
      files: 300n,
      freeFiles: 200n,
      id: 2049n,
      flags: STATVFS_READ_ONLY | STATVFS_NO_SUID,
      nameMax: 255n,
    });
    const fields = Array.from({ length: 11 }, (_, i) => body.readBigUInt64BE(i * 8));
    assert.equal(body.length, 88);
    // bsize, frsize, blocks, bfree, bavail, files, ffree, favail, fsid, flag, namemax
    assert.deepEqual(fields, [4096n, 4096n, 1000n, 600n, 500n, 300n, 200n, 200n, 2049n, 3n, 255n]);
  });
});

describe('the mode of a folder MKDIR makes, before the umask', () => {
  it('keeps the asked bits and adds search wherever read is granted', () => {
    const cases: [number | undefined, number][] = [
      [undefined, 0o777],
      [0o777, 0o777],
      [0o755, 0o755],
      [0o744, 0o755], // what scp asks for the folder of several files (0644 | 0700)
      [0o700, 0o700],
      [0o640, 0o750],
      [0o400, 0o500],
      [0o000, 0o000],
      [0o1777, 0o1777],
      [0o40755, 0o755], // type bits a client may send are dropped
    ];
    for (const [asked, made] of cases) {
      assert.equal(folderMode(asked), made, `asked ${asked?.toString(8)}`);
    }
  });
});

describe('the statvfs flags of the mount holding a path', () => {
  const table = [
    '22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw',
    '30 22 0:25 / /data ro,nosuid,nodev shared:2 - tmpfs tmpfs rw',
    '31 22 0:26 / /srv/my\\040space rw,nosuid - ext4 /dev/sdb rw',
    '32 22 0:27 / /frozen rw - ext4 /dev/sdc ro',
    '33 30 0:28 / /data/inner rw - tmpfs tmpfs rw',
    '34 22 0:29 / /stacked ro - tmpfs tmpfs rw',
    '35 22 0:30 / /stacked rw - tmpfs tmpfs rw',
    '',
  ].join('\n');

  it('takes the deepest mount point containing the path, the last one when stacked', () => {
    const cases: [string, bigint][] = [
      ['/home/me/work', 0n],
      ['/', 0n],
      ['/data', STATVFS_READ_ONLY | STATVFS_NO_SUID],
      ['/data/x/y', STATVFS_READ_ONLY | STATVFS_NO_SUID],
      ['/database', 0n],
      ['/data/inner/z', 0n],
      ['/srv/my space/w', STATVFS_NO_SUID],
      ['/frozen/a', STATVFS_READ_ONLY],
      ['/stacked/a', 0n],
    ];
    for (const [path, flags] of cases) assert.equal(mountFlags(path, table), flags, path);
    assert.equal(mountFlags('/anything', ''), 0n);
  });
});

/** A statvfs answer as ssh2's client hands it over. */
type Figures = Record<string, number>;

/** The process's umask, which the sandbox it starts inherits. */
function umask(): number {
  const line = /^Umask:\s+([0-7]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  assert.ok(line, 'no Umask line in /proc/self/status');
  return parseInt(line[1]!, 8);
}

/** The permission bits of a file or folder. */
async function modeOf(path: string): Promise<number> {
  return (await stat(path)).mode & 0o7777;
}

describe('OpenSSH’s sftp and scp with the extensions (-enable-ssh)', () => {
  let workspace: Awaited<ReturnType<typeof tempDir>>;
  let scratch: Awaited<ReturnType<typeof tempDir>>;
  let sandbox: RunningApiSandbox;
  let key: { file: string; publicLine: string };
  let sshPort: number;
  let client: ssh2.Client;
  let sftp: SFTPWrapper;

  const batch = (commands: string[]) => sftpBatch(key.file, sshPort, commands, scratch.path);
  const scp = (args: string[]) =>
    run('scp', [...clientOptions(key.file), '-P', String(sshPort), ...args], { cwd: scratch.path });
  const ws = (path: string) => join(workspace.path, path);

  before(async () => {
    workspace = await tempDir('paddock-sftp-ws-');
    scratch = await tempDir('paddock-sftp-client-');
    key = await keygen(scratch.path, 'alice');
    sandbox = await startApiSandbox(workspace.path, ['-enable-ssh']);
    const headers = { ...as('alice'), 'content-type': 'application/json' };
    const registered = await fetch(`${sandbox.apiBase}/api/ssh-authorized-keys`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ publicKey: key.publicLine }),
    });
    assert.equal(registered.status, 201);
    sshPort = (
      (await (await fetch(`${sandbox.apiBase}/api/ssh-port`, { headers })).json()) as {
        port: number;
      }
    ).port;
    client = new ssh2.Client();
    await new Promise<void>((resolve, reject) => {
      client.once('ready', resolve).once('error', reject);
      client.connect({
        host: '127.0.0.1',
        port: sshPort,
        username: 'alice',
        privateKey: readFileSync(key.file),
        hostVerifier: () => true,
      });
    });
    sftp = await new Promise<SFTPWrapper>((resolve, reject) =>
      client.sftp((err, session) => (err ? reject(err) : resolve(session))),
    );
  });
  after(async () => {
    client?.end();
    await sandbox?.stop();
    await workspace?.remove();
    await scratch?.remove();
  });

  it('announces the extensions, which sftp reports', async () => {
    const ran = await run('sftp', [
      ...clientOptions(key.file),
      '-vvv',
      '-P',
      String(sshPort),
      '-b',
      '/dev/null',
      'x@127.0.0.1',
    ]);
    assert.equal(ran.code, 0, ran.stderr);
    for (const [name, version] of SFTP_EXTENSIONS) {
      assert.match(
        ran.stderr,
        new RegExp(`Server supports extension "${name}" revision ${version}`),
      );
    }
  });

  it('prints df, df -h and df -i with the workspace file system’s figures', async () => {
    const ran = await batch(['df', 'df -h', 'df -i']);
    assert.equal(ran.code, 0, ran.stderr);
    const fs = await statfs(workspace.path);
    const [plain, human, inodes] = ran.stdout
      .toString()
      .split(/^sftp> .*\n/m)
      .slice(1)
      .map((section) => section.trim().split('\n'));
    // Size, Used, Avail, (root), %Capacity: Size in KiB (blocks × block size); the others move.
    assert.match(plain![0]!, /^\s*Size\s+Used\s+Avail\s+\(root\)\s+%Capacity$/);
    const [size] = plain![1]!.trim().split(/\s+/).map(Number);
    assert.equal(size, Math.floor((fs.blocks * fs.bsize) / 1024));
    const [files] = inodes![1]!.trim().split(/\s+/).map(Number);
    assert.equal(files, fs.files);
    // -h: scaled by 1024 to three digits ("252GB", "7.8GB").
    const scaled = /^\s*([\d.]+)([KMGTPE]?)B/.exec(human![1]!);
    assert.ok(scaled, human![1]);
    const bytes = Number(scaled[1]) * 1024 ** ' KMGTPE'.indexOf(scaled[2] || ' ');
    const expected = fs.blocks * fs.bsize;
    assert.ok(Math.abs(bytes - expected) / expected < 0.01, `${human![1]} for ${expected} bytes`);
  });

  it('answers statvfs and fstatvfs with the figures statfs gives', async () => {
    await writeFile(ws('figures.txt'), 'x');
    const fs = await statfs(workspace.path);
    const device = (await stat(workspace.path)).dev;
    const byPath = await new Promise<Figures>((resolve, reject) =>
      sftp.ext_openssh_statvfs('figures.txt', (err, info) =>
        err ? reject(err) : resolve(info as Figures),
      ),
    );
    const handle = await new Promise<Buffer>((resolve, reject) =>
      sftp.open('figures.txt', 'r', (err, h) => (err ? reject(err) : resolve(h))),
    );
    const byHandle = await new Promise<Figures>((resolve, reject) =>
      sftp.ext_openssh_fstatvfs(handle, (err, info) =>
        err ? reject(err) : resolve(info as Figures),
      ),
    );
    await new Promise<void>((resolve, reject) =>
      sftp.close(handle, (err) => (err ? reject(err) : resolve())),
    );
    for (const info of [byPath, byHandle]) {
      assert.equal(info.f_bsize, fs.bsize);
      assert.equal(info.f_frsize, fs.bsize);
      assert.equal(info.f_blocks, fs.blocks);
      assert.equal(info.f_files, fs.files);
      assert.equal(info.f_sid, device);
      assert.equal(info.f_namemax, 255);
      assert.equal(info.f_favail, info.f_ffree);
    }
    const outside = await new Promise<string>((resolve) =>
      sftp.ext_openssh_statvfs('/etc', (err) => resolve(String(err?.message))),
    );
    assert.match(outside, /outside the workspace|Permission denied/i);
  });

  it('replaces an existing file on rename (posix-rename); rename -l keeps SFTP’s no-overwrite', async () => {
    await writeFile(ws('draft.txt'), 'new text\n');
    await writeFile(ws('final.txt'), 'old text\n');
    const ran = await batch(['-rename -l draft.txt final.txt', 'rename draft.txt final.txt']);
    assert.equal(ran.code, 0, ran.stderr);
    // The legacy request refused (the target exists); the plain one replaced it.
    assert.match(ran.stderr, /remote rename .*draft\.txt.* to .*final\.txt.*: Failure/);
    assert.equal(await readFile(ws('final.txt'), 'utf8'), 'new text\n');
    assert.ok(!(await readdir(workspace.path)).includes('draft.txt'));
  });

  it('refuses a rename that leaves the workspace or goes through a symlink out of it', async () => {
    const outside = join(scratch.path, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'theirs.txt'), 'outside\n');
    await writeFile(ws('mine.txt'), 'inside\n');
    await symlink(outside, ws('door'));
    const ran = await batch([
      `-rename mine.txt ${join(outside, 'planted.txt')}`,
      '-rename mine.txt ../planted.txt',
      '-rename mine.txt door/planted.txt',
      `-rename ${join(outside, 'theirs.txt')} taken.txt`,
      '-rename door/theirs.txt taken.txt',
    ]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stderr.match(/Permission denied/g)?.length, 5, ran.stderr);
    assert.deepEqual(await readdir(outside), ['theirs.txt']);
    assert.equal(await readFile(ws('mine.txt'), 'utf8'), 'inside\n');
    assert.ok(!(await readdir(workspace.path)).includes('taken.txt'));
  });

  it('makes folders and files as mkdir and open would under the umask', async () => {
    const mask = umask();
    // scp -r of a 0755 folder into a missing one: made, then given the folder's mode.
    const tree = join(scratch.path, 'tree');
    await mkdir(join(tree, 'sub'), { recursive: true });
    await writeFile(join(tree, 'sub', 'file.txt'), 'in a tree\n');
    await chmod(tree, 0o755);
    await chmod(join(tree, 'sub'), 0o755);
    const copied = await scp(['-r', tree, 'x@127.0.0.1:copied']);
    assert.equal(copied.code, 0, copied.stderr);
    assert.equal(await modeOf(ws('copied')), 0o755 & ~mask);
    assert.equal(await modeOf(ws('copied/sub')), 0o755 & ~mask);
    assert.equal(await readFile(ws('copied/sub/file.txt'), 'utf8'), 'in a tree\n');

    // Several files into a missing folder: scp asks for 0744 (a file's 0644 | 0700).
    const one = join(scratch.path, 'one.txt');
    const two = join(scratch.path, 'two.txt');
    await writeFile(one, '1\n');
    await writeFile(two, '2\n');
    await chmod(one, 0o644);
    await chmod(two, 0o644);
    const several = await scp([one, two, 'x@127.0.0.1:several']);
    assert.equal(several.code, 0, several.stderr);
    assert.equal(await modeOf(ws('several')), 0o755 & ~mask);
    assert.deepEqual((await readdir(ws('several'))).sort(), ['one.txt', 'two.txt']);

    // sftp's mkdir asks for 0777.
    const made = await batch(['mkdir made']);
    assert.equal(made.code, 0, made.stderr);
    assert.equal(await modeOf(ws('made')), 0o777 & ~mask);

    // Without a mode: a folder 0777, a file 0666, each narrowed by the umask.
    await new Promise<void>((resolve, reject) =>
      sftp.mkdir('bare', (err) => (err ? reject(err) : resolve())),
    );
    const handle = await new Promise<Buffer>((resolve, reject) =>
      sftp.open('bare.txt', 'w', (err, h) => (err ? reject(err) : resolve(h))),
    );
    await new Promise<void>((resolve, reject) =>
      sftp.close(handle, (err) => (err ? reject(err) : resolve())),
    );
    assert.equal(await modeOf(ws('bare')), 0o777 & ~mask);
    assert.equal(await modeOf(ws('bare.txt')), 0o666 & ~mask);
  });

  it('refuses to create a file under a name ending in a slash, as open(2) does', async () => {
    const file = join(scratch.path, 'lone.txt');
    await writeFile(file, 'lone\n');
    const ran = await scp([file, 'x@127.0.0.1:nowhere/']);
    assert.notEqual(ran.code, 0);
    assert.match(ran.stderr, /dest open "nowhere\/": Failure/);
    assert.ok(!(await readdir(workspace.path)).includes('nowhere'));
  });

  it('syncs an open file (fsync@openssh.com), as sftp’s put -f asks', async () => {
    const handle = await new Promise<Buffer>((resolve, reject) =>
      sftp.open('synced.txt', 'w', (err, h) => (err ? reject(err) : resolve(h))),
    );
    await new Promise<void>((resolve, reject) =>
      sftp.write(handle, Buffer.from('synced\n'), 0, 7, 0, (err) =>
        err ? reject(err) : resolve(),
      ),
    );
    const synced = await new Promise<string>((resolve) =>
      sftp.ext_openssh_fsync(handle, (err) => resolve(err ? err.message : 'ok')),
    );
    assert.equal(synced, 'ok');
    await new Promise<void>((resolve, reject) =>
      sftp.close(handle, (err) => (err ? reject(err) : resolve())),
    );
    const file = join(scratch.path, 'put.txt');
    await writeFile(file, 'put\n');
    const ran = await batch([`put -f ${file} put.txt`]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(await readFile(ws('synced.txt'), 'utf8'), 'synced\n');
    assert.equal(await readFile(ws('put.txt'), 'utf8'), 'put\n');
  });
});
