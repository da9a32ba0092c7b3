export { parseAddress, formatAddress, httpUrl, type Address } from './address.js';
export {
  env,
  loadConfig,
  ConfigError,
  type EnvShape,
  type ConfigOf,
  type ConfigCheck,
} from './config.js';
export {
  createLogger,
  silentLogger,
  loggingFromEnv,
  loggingEnv,
  LOG_LEVELS,
  type Logger,
  type LogFormat,
  type LoggerOptions,
} from './logger.js';
export {
  CodedError,
  HttpError,
  httpErrors,
  toEnvelope,
  sendErrorEnvelope,
  type ErrorEnvelope,
  type StatusOfCode,
} from './errors.js';
export { Health, HEALTH_PATHS, type ReadinessCheck } from './health.js';
export {
  createHttpApp,
  createNodeServer,
  listen,
  DEFAULT_BODY_LIMIT,
  EVENT_STREAM_HEADERS,
  type HttpAppOptions,
} from './http.js';
export {
  safeReturnPath,
  DEFAULT_RETURN_PATH,
  MAX_RETURN_PATH_CHARS,
  MAX_RETURN_PATH_DECODES,
} from './return-path.js';
export {
  Shutdown,
  DEFAULT_GRACE_MS,
  FORCE_RESERVE_MS,
  forceMoment,
  type ShutdownStep,
  type ShutdownOptions,
  type StopBudget,
} from './shutdown.js';
export { runMain, UsageError, onlyOption, packageInfo, type PackageInfo } from './cli.js';
export { AGENT_NODE_FLAGS, SANDBOX_NODE_FLAGS } from './per-agent-node-flags.js';
export { mailEnv, mailerFrom, smtpMailer, logMailer, type Mail, type Mailer } from './mail.js';
export type {
  OpenApiSchema,
  OpenApiRef,
  OpenApiParameter,
  OpenApiResponse,
  OpenApiSecurityRequirement,
  OpenApiOperation,
  OpenApiDocument,
} from './openapi.js';
export { DATABASE_FILE_MODE, DATABASE_FOLDER_MODE, prepareDatabaseFile } from './database-file.js';
export {
  PROOF_HEADER,
  PROOF_MAX_LIFETIME_SECONDS,
  PROOF_DEFAULT_LIFETIME_SECONDS,
  PROOF_ALGORITHMS,
  proofAlgorithmOf,
  signIdentityProof,
  createProofKeys,
  type ProofIdentity,
  type SignProofOptions,
} from './identity-proof.js';
export {
  verifyProof,
  identityFromHeaders,
  identityOfClaims,
  headerMismatch,
  proxySecretDigest,
  proofVerifierFrom,
  DEV_IDENTITY,
  PROOF_CLOCK_SKEW_SECONDS,
  MAX_PROOF_CHARS,
  type Identity,
  type ProofVerifier,
  type ProofOutcome,
  type ProofSettings,
} from './proof-verifier.js';
export {
  metricProblems,
  metricNameProblems,
  metricsOfExposition,
  type MetricDescription,
  type MetricNameProblem,
} from './metric-names.js';
export { loadOnce } from './load-once.js';
