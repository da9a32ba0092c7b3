import {
  ConfigError,
  proofVerifierFrom,
  type ProofSettings,
  type ProofVerifier,
} from '@paddock/common';

// The proof check itself is @paddock/common's (proof-verifier.ts), shared with the agent's runs
// API; what is the sandbox's own is that its human API never starts without one outside dev mode.

/**
 * The proof the human API requires: the configured one; none only in dev mode. Outside dev mode a
 * human API without a proof would believe anyone's X-Forwarded-Sub, so the sandbox refuses to start.
 */
export function apiProofFor(devMode: boolean, settings: ProofSettings): ProofVerifier | undefined {
  const found = proofVerifierFrom(settings);
  if ('problems' in found) throw new ConfigError(found.problems);
  if (found.verifier === undefined && !devMode) {
    throw new ConfigError([
      'the human API (-api-addr) requires a proof of the proxy in front of it: set SVC_API_PROOF_PUBLIC_KEY and SVC_API_PROOF_AUDIENCE (a proxy that signs tokens), or SVC_API_PROXY_SECRET_SHA256 (a proxy that sends a static secret); see docs/sandbox/remote-access.md',
    ]);
  }
  return found.verifier;
}
