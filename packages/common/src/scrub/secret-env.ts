/**
 * The name endings that mark a variable, or a key in a file, as holding a secret, as a regex source
 * fragment (lowercase; match it ignoring case). Shared with the assignment pattern so that the
 * variables kept from child processes and the keys redacted in output follow one rule.
 * `SECRET_KEY` and `SECRET_ACCESS_KEY` are there for AWS_SECRET_ACCESS_KEY, STRIPE_SECRET_KEY and
 * the like, which the other endings would miss.
 */
export const SECRET_NAME_ENDING =
  '(?:token|secret|passw(?:or)?d|api[_-]?key|private[_-]?key|secret[_-]?(?:access[_-]?)?key)';

const SECRET_NAME = new RegExp(`${SECRET_NAME_ENDING}$`, 'i');

/** Shorter values are not collected from the environment: they would match ordinary words. */
const MIN_SECRET_LENGTH = 8;

/** The prefix of the sandbox's own configuration, which a child process never sees. */
const SERVICE_PREFIX = 'SVC_';

/**
 * True for names ending in TOKEN, SECRET, PASSWORD, PASSWD, API_KEY, PRIVATE_KEY, SECRET_KEY or
 * SECRET_ACCESS_KEY, ignoring case, with `_`, `-` or nothing inside the two-word endings
 * (GITHUB_TOKEN, DB_PASSWORD, my-api-key, apiKey).
 */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * The values of secret-named variables (SVC_* ones included), at least MIN_SECRET_LENGTH long,
 * deduplicated: what the scrubber redacts wherever it appears.
 */
export function secretsFromEnv(env: NodeJS.ProcessEnv): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.length >= MIN_SECRET_LENGTH && isSecretName(name)) {
      values.add(value);
    }
  }
  return [...values];
}

/**
 * The environment an agent's command runs with: `env` without the sandbox's SVC_* configuration
 * and without any secret-named variable, so that a command cannot print what it never received.
 */
export function childEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const child: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || name.startsWith(SERVICE_PREFIX) || isSecretName(name)) continue;
    child[name] = value;
  }
  return child;
}
