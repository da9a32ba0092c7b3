import { stringify } from 'yaml';
import { writeSecretFile } from './data-dir.js';

export const CONTEXT_NAME = 'paddock-local';

/**
 * A kubeconfig for the admin: the server's HTTPS URL and certificate, the admin token, one context
 * named paddock-local.
 */
export function kubeconfig(server: string, caCertificate: string, token: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: CONTEXT_NAME,
        cluster: {
          server,
          'certificate-authority-data': Buffer.from(caCertificate).toString('base64'),
        },
      },
    ],
    users: [{ name: `${CONTEXT_NAME}-admin`, user: { token } }],
    contexts: [
      { name: CONTEXT_NAME, context: { cluster: CONTEXT_NAME, user: `${CONTEXT_NAME}-admin` } },
    ],
    'current-context': CONTEXT_NAME,
    preferences: {},
  });
}

/** Writes the kubeconfig with mode 0600: it holds the admin token. */
export async function writeKubeconfig(
  file: string,
  server: string,
  caCertificate: string,
  token: string,
): Promise<void> {
  await writeSecretFile(file, kubeconfig(server, caCertificate, token));
}
