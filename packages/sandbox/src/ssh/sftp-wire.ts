/**
 * The SFTP packets ssh2's codec cannot write as a server: the VERSION hello with the extensions
 * the server supports, and EXTENDED_REPLY answers (OpenSSH's PROTOCOL file, section 4). Pure
 * encoding and decoding, so the framing is tested without a connection.
 */

/** SSH_FXP_VERSION, the server's hello. */
export const SSH_FXP_VERSION = 2;
/** SSH_FXP_EXTENDED_REPLY, the answer of an extension that returns data. */
export const SSH_FXP_EXTENDED_REPLY = 201;
/** The protocol version served (what OpenSSH's clients and ssh2 speak). */
export const SFTP_VERSION = 3;

/** f_flag bits of a statvfs reply. */
export const STATVFS_READ_ONLY = 0x1n;
export const STATVFS_NO_SUID = 0x2n;

/** An extension the server announces: its name and the version it implements. */
export type ExtensionAnnouncement = readonly [name: string, version: string];

/** One SFTP packet: uint32 length, then the type byte and the payload. */
function packet(type: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(payload.length + 1, 0);
  head[4] = type;
  return Buffer.concat([head, payload]);
}

function uint32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value, 0);
  return out;
}

function sshString(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  return Buffer.concat([uint32(bytes.length), bytes]);
}

/** The VERSION hello: version 3, then each extension's name and version as strings. */
export function versionPacket(extensions: readonly ExtensionAnnouncement[]): Buffer {
  return packet(
    SSH_FXP_VERSION,
    Buffer.concat([
      uint32(SFTP_VERSION),
      ...extensions.flatMap(([name, version]) => [sshString(name), sshString(version)]),
    ]),
  );
}

/** Whether `data` is a bare VERSION hello (no extensions), as ssh2 writes it. */
export function isBareVersionPacket(data: Buffer): boolean {
  return data.length === 9 && data.readUInt32BE(0) === 5 && data[4] === SSH_FXP_VERSION;
}

/** An EXTENDED_REPLY to request `reqId` carrying `body`. */
export function extendedReplyPacket(reqId: number, body: Buffer): Buffer {
  return packet(SSH_FXP_EXTENDED_REPLY, Buffer.concat([uint32(reqId), body]));
}

/**
 * The first `count` strings of an extended request's data (after its name), as raw bytes;
 * undefined when the data is shorter than it says.
 */
export function readStrings(data: Buffer | undefined, count: number): Buffer[] | undefined {
  const source = data ?? Buffer.alloc(0);
  const strings: Buffer[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 4 > source.length) return undefined;
    const length = source.readUInt32BE(at);
    at += 4;
    if (at + length > source.length) return undefined;
    strings.push(source.subarray(at, at + length));
    at += length;
  }
  return strings;
}

/** What statvfs(3) says of a file system, as a statvfs@openssh.com reply carries it. */
export interface FileSystemFigures {
  /** Block size the figures count in (f_bsize and f_frsize: Linux reports one size for both). */
  blockSize: bigint;
  blocks: bigint;
  freeBlocks: bigint;
  /** Free blocks an unprivileged user may use. */
  availableBlocks: bigint;
  files: bigint;
  freeFiles: bigint;
  /** Identifies the file system (f_fsid). */
  id: bigint;
  /** STATVFS_READ_ONLY | STATVFS_NO_SUID. */
  flags: bigint;
  /** Longest file name (f_namemax). */
  nameMax: bigint;
}

const UINT64_MAX = (1n << 64n) - 1n;

/**
 * The body of a statvfs@openssh.com / fstatvfs@openssh.com reply: eleven uint64 in PROTOCOL's
 * order (bsize, frsize, blocks, bfree, bavail, files, ffree, favail, fsid, flag, namemax).
 * f_favail is f_ffree, as Linux's statvfs reports it.
 */
export function statvfsBody(figures: FileSystemFigures): Buffer {
  const fields = [
    figures.blockSize,
    figures.blockSize,
    figures.blocks,
    figures.freeBlocks,
    figures.availableBlocks,
    figures.files,
    figures.freeFiles,
    figures.freeFiles,
    figures.id,
    figures.flags,
    figures.nameMax,
  ];
  const body = Buffer.alloc(fields.length * 8);
  fields.forEach((value, i) => body.writeBigUInt64BE(value & UINT64_MAX, i * 8));
  return body;
}
