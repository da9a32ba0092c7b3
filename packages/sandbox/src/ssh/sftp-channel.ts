import { createRequire } from 'node:module';
import type { ServerChannel, SFTPWrapper } from 'ssh2';
import {
  extendedReplyPacket,
  isBareVersionPacket,
  versionPacket,
  type ExtensionAnnouncement,
} from './sftp-wire.js';

/**
 * ssh2's SFTP codec: it parses requests and writes the answers, but as a server it announces no
 * extension and cannot send EXTENDED_REPLY. The class is not part of ssh2's public API; its
 * constructor takes the connection (for its protocol writer) and the channel's bookkeeping.
 */
type SftpCodecClass = new (
  link: CodecLink,
  channelInfo: { type: string; incoming: unknown; outgoing: CodecOutgoing },
  options: { server: true },
) => SFTPWrapper;

interface CodecOutgoing {
  id: number;
  state: 'open' | 'closed';
  window: number;
  packetSize: number;
}

interface CodecLink {
  _protocol: {
    _remoteIdentRaw: string;
    channelData(id: number, data: Buffer): void;
    channelClose(id: number): void;
  };
}

const { SFTP } = createRequire(import.meta.url)('ssh2/lib/protocol/SFTP.js') as {
  SFTP: SftpCodecClass;
};

/** An SFTP session on a subsystem channel, with what ssh2's own SFTP stream cannot do. */
export interface SftpSession {
  /** Requests arrive as its events; answers are written with its methods (handle, status, ...). */
  sftp: SFTPWrapper;
  /** Answers an extended request with data (SSH_FXP_EXTENDED_REPLY). */
  extendedReply: (reqId: number, body: Buffer) => void;
  /** Ends the session as sftp-server's exit does: exit status 0, then EOF and close. */
  finish: () => void;
  /**
   * Resolves once the answers written so far fit the channel's buffer again (or the channel is
   * gone): a client that asks without reading its answers is not answered further, so what waits
   * for its window stays bounded.
   */
  roomToAnswer: () => Promise<void>;
}

/**
 * Runs ssh2's SFTP codec over a plain subsystem channel (accepted as `subsystem`, not `sftp`):
 * everything the codec writes goes through the channel's stream, which keeps to the client's
 * window and packet size, so packets written here (the VERSION hello that announces
 * `extensions`, EXTENDED_REPLY) stay in order with the codec's own.
 */
export function openSftpSession(
  channel: ServerChannel,
  extensions: readonly ExtensionAnnouncement[],
): SftpSession {
  let hello = true;
  let closed = false;
  const write = (data: Buffer) => {
    if (!channel.writable) return;
    // The server's first packet is its VERSION hello, which ssh2 writes bare.
    if (hello && isBareVersionPacket(data)) data = versionPacket(extensions);
    hello = false;
    channel.write(data);
  };
  // The channel's stream does the flow control: to the codec the window is unbounded.
  const outgoing: CodecOutgoing = {
    id: 0,
    state: 'open',
    window: Number.POSITIVE_INFINITY,
    packetSize: Number.POSITIVE_INFINITY,
  };
  const sftp = new SFTP(
    {
      _protocol: {
        _remoteIdentRaw: '',
        channelData: (_id, data) => write(data),
        // The codec closes on a protocol error (and when told to end).
        channelClose: () => channel.destroy(),
      },
    },
    { type: 'session', incoming: {}, outgoing },
    { server: true },
  );
  const codec = sftp as unknown as { push(data: Buffer | null): void };
  channel.on('data', (data: Buffer) => codec.push(data));
  channel.on('end', () => codec.push(null));
  channel.on('close', () => {
    closed = true;
    outgoing.state = 'closed';
    sftp.emit('close');
  });
  return {
    sftp,
    extendedReply: (reqId, body) => write(extendedReplyPacket(reqId, body)),
    finish: () => {
      if (!channel.writable) return;
      // OpenSSH's scp reports failure without the exit status sftp-server's exit gives.
      channel.exit(0);
      channel.end();
    },
    roomToAnswer: () =>
      closed || !channel.writableNeedDrain
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const done = () => {
              channel.off('drain', done).off('close', done);
              resolve();
            };
            channel.on('drain', done).on('close', done);
          }),
  };
}
