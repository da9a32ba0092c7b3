/**
 * What other packages use of the dashboard without loading it (its store, its native modules):
 * the platform's local door signs proofs as the dashboard does, and whatever starts the dashboard
 * gives it its Node.js flags and environment.
 */
export { DASHBOARD_ENV, DASHBOARD_NODE_FLAGS } from './node-flags.js';
export { ProofSigner, PROOF_LIFETIME_SECONDS, PROOF_REUSE_MS } from './door/proof-signer.js';
