import { DEFAULT_AGENT_IMAGE } from '@paddock/kube';

/** Which containers this node can run: only the sandbox's image, as a local process. Pure. */

/** The repository of an image reference, without tag or digest. */
function repositoryOf(image: string): string {
  const withoutDigest = image.split('@')[0]!;
  const colon = withoutDigest.lastIndexOf(':');
  return colon > withoutDigest.lastIndexOf('/') ? withoutDigest.slice(0, colon) : withoutDigest;
}

const SANDBOX_IMAGE_NAME = repositoryOf(DEFAULT_AGENT_IMAGE);

/**
 * Whether this machine can run the image: only the sandbox's (`paddock-sandbox` with any tag, from
 * any registry), since what runs is the local paddock-sandbox command, not the image.
 */
export function runsLocally(image: string): boolean {
  const repository = repositoryOf(image);
  return repository.slice(repository.lastIndexOf('/') + 1) === SANDBOX_IMAGE_NAME;
}

/** The waiting message of a pod whose image cannot run here (also its one warning event). */
export function imageRefusal(image: string): string {
  return `this node runs only paddock-sandbox images, as local processes; the container image "${image}" cannot run here (the embedded cluster runs no containers)`;
}
