import { createLogger, loggingFromEnv, parseAddress, Shutdown, UsageError } from '@paddock/common';
import { Kube } from '@paddock/kube';
import { DEFAULT_PLATFORM_NAMESPACE, PROOF_SECRET_NAME } from '@paddock/operator';
import { LocalDoor } from './local-door.js';

/** Where the operator keeps the key that signs identity proofs for the sandboxes' human API. */
const SIGNING_SECRET = { namespace: DEFAULT_PLATFORM_NAMESPACE, name: PROOF_SECRET_NAME } as const;

/** The variable holding the door's bearer token, kept off the command line (ps shows that). */
export const DOOR_TOKEN_ENV = 'PADDOCK_DOOR_TOKEN';

export interface LocalDoorCommandOptions {
  kubeconfig: string;
  /** HOST:PORT of the MCP door; the human API's is the next port. */
  listen: string;
  /** namespace/name of the pod the door leads to. */
  pod: string;
}

/** `paddock door`: stable local addresses leading to one agent pod, until a signal. */
export async function runLocalDoor(
  options: LocalDoorCommandOptions,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const listen = parseAddress(options.listen);
  if ('error' in listen) throw new UsageError(`--listen: ${listen.error}`);
  const [namespace, pod, ...rest] = options.pod.split('/');
  if (namespace === undefined || pod === undefined || pod === '' || rest.length > 0) {
    throw new UsageError(`--pod must be NAMESPACE/NAME, not "${options.pod}"`);
  }
  const logger = createLogger({ name: 'paddock-door', ...loggingFromEnv(environment) });
  const kube = Kube.connect({ kubeconfig: options.kubeconfig });
  const door = new LocalDoor({
    kube,
    namespace,
    pod,
    listen,
    signingSecret: SIGNING_SECRET,
    token: environment[DOOR_TOKEN_ENV] || undefined,
    logger,
  });
  new Shutdown({ logger })
    .add('kubernetes client', () => kube.close())
    .add('door', () => door.stop())
    .listen();
  const addresses = await door.start();
  logger.info({ pod: options.pod, mcp: addresses[0], api: addresses[1] }, 'door open');
}
