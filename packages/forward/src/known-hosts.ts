import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ForwardError } from './failure.js';

/**
 * The known_hosts file that ssh-setup's Host block names (UserKnownHostsFile). The sandbox makes a
 * new host key at every start, so the file is not a memory of past keys: `--ssh` rewrites it before
 * every connection with the keys the sandbox reports now, fetched over the same authenticated
 * channel as everything else. See docs/decisions/0024-ssh-through-the-dashboard.md.
 */

/** The file's text: one `ALIAS <type> <base64>` line per key; empty when there is none. Pure. */
export function knownHostsText(hostKeyAlias: string, hostKeys: readonly string[]): string {
  return hostKeys.map((key) => `${hostKeyAlias} ${key}\n`).join('');
}

/**
 * Replaces the file in one step: ssh may be reading it for a concurrent connection (an IDE opens
 * several), and a reader must see the old keys or the new ones, never half a file. The temporary
 * name is unique because concurrent ProxyCommands write at once.
 */
export async function writeKnownHosts(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(temporary, text, { mode: 0o600, flag: 'wx' });
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true }).catch(() => {});
    throw new ForwardError(`cannot write ${path}: ${(err as Error).message}`);
  }
}

/** A public key file's one key line, and the label to register it under (its comment). */
export interface PublicKeyFile {
  line: string;
  comment: string;
}

/** Reads a `.pub` file: one `<type> <base64> [comment]` line. Pure apart from the read. */
export async function readPublicKeyFile(path: string): Promise<PublicKeyFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new ForwardError(`cannot read the public key ${path}: ${(err as Error).message}`);
  }
  return parsePublicKeyFile(text, path);
}

export function parsePublicKeyFile(text: string, path: string): PublicKeyFile {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const match = lines.length === 1 ? /^(\S+)\s+(\S+)(?:\s+(.*))?$/.exec(lines[0]!.trim()) : null;
  if (match === null) {
    throw new ForwardError(
      `${path} is not a public key file (one "<type> <base64> [comment]" line)`,
    );
  }
  return { line: lines[0]!.trim(), comment: (match[3] ?? '').trim() };
}
