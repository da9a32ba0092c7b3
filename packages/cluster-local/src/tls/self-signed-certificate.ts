import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';
import {
  bitString,
  boolean,
  explicit,
  implicit,
  integer,
  octetString,
  oid,
  sequence,
  set,
  time,
  utf8String,
} from './der.js';

export interface Certificate {
  /** PEM. */
  cert: string;
  /** PEM (PKCS#8). */
  key: string;
  /** The names and addresses the certificate is valid for. */
  hosts: string[];
}

const ECDSA_WITH_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));
const VALIDITY_YEARS = 10;

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return sequence(oid(id), ...(critical ? [boolean(true)] : []), octetString(value));
}

function ipBytes(address: string): Buffer {
  if (isIP(address) === 4) return Buffer.from(address.split('.').map(Number));
  const [head = '', tail = ''] = address.split('::');
  const groups = (text: string) => (text === '' ? [] : text.split(':'));
  const left = groups(head);
  const right = groups(tail);
  const all = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return Buffer.concat(all.map((g) => Buffer.from(g.padStart(4, '0'), 'hex')));
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/**
 * A self-signed certificate (EC P-256) for the API server's TLS side, valid for the given host names
 * and IP addresses. It is its own CA: the kubeconfig carries it as certificate-authority-data, so
 * kubectl verifies the server (and sends credentials at all: it sends none over plain HTTP).
 */
export function selfSignedCertificate(hosts: readonly string[], now = new Date()): Certificate {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const name = sequence(set(sequence(oid('2.5.4.3'), utf8String('paddock-cluster'))));
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + VALIDITY_YEARS);
  const altNames = hosts.map((host) =>
    isIP(host) ? implicit(7, ipBytes(host)) : implicit(2, Buffer.from(host)),
  );
  const extensions = sequence(
    extension('2.5.29.19', true, sequence(boolean(true))),
    // digitalSignature and keyCertSign.
    extension('2.5.29.15', true, bitString(Buffer.from([0x84]), 2)),
    extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.1'))),
    extension('2.5.29.17', false, sequence(...altNames)),
  );
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    ECDSA_WITH_SHA256,
    name,
    sequence(time(new Date(now.getTime() - 60_000)), time(notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, extensions),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificate = sequence(tbs, ECDSA_WITH_SHA256, bitString(signature));
  return {
    cert: pem('CERTIFICATE', certificate),
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    hosts: [...hosts],
  };
}
