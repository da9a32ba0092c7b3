import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authentication, Authenticator } from '../auth/authenticator.js';
import { presentedCredential, type PresentedCredential } from '../auth/identity.js';
import { trustedPeers } from '../auth/proxy.js';
import { logSignIn, type SignInEvent, type SignInMode } from '../auth/sign-in-log.js';
import { clientAddress } from '../builtin/client-address.js';
import type { AuthMode } from '../config.js';
import { CodedError } from '@paddock/common';
import type { MaybePromise } from '../maybe-promise.js';
import type { DashboardMetrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Logs and counts sign-ins (the auth routes and the authentication hook). */
    signIns: SignIns;
  }
}

export interface SignInsOptions {
  mode: AuthMode;
  /** SVC_AUTH_PROXY_TRUSTED_ADDRESSES: whose X-Forwarded-For names the client. */
  trustedProxies: readonly string[];
  /** SVC_AUTH_PROXY_HEADER_USER: who a failed proxy sign-in claimed to be. */
  proxyUserHeader: string;
}

/** The code of a failure: the error code it answers with, else internal_error. */
function reasonOf(err: unknown): string {
  return err instanceof CodedError ? err.code : 'internal_error';
}

/**
 * The sign-in events of the HTTP edge: each logged through the request's logger ('sign-in
 * succeeded' / 'sign-in failed') and counted, with the client's address and user agent.
 */
export class SignIns {
  private readonly trusted: (address: string) => boolean;

  constructor(
    private readonly metrics: DashboardMetrics,
    private readonly options: SignInsOptions,
  ) {
    this.trusted =
      options.trustedProxies.length > 0 ? trustedPeers(options.trustedProxies) : () => false;
  }

  /** The client as the rate limits see it: the peer, or the address a trusted proxy forwarded. */
  clientOf(req: FastifyRequest): SignInEvent['client'] {
    const ip = clientAddress(
      req.socket.remoteAddress,
      req.headers['x-forwarded-for'],
      this.trusted,
    );
    return { ip, userAgent: req.headers['user-agent'] };
  }

  record(req: FastifyRequest, event: Omit<SignInEvent, 'client'>): void {
    logSignIn(req.log, { ...event, client: this.clientOf(req) });
    this.metrics.signIn(event.mode, event.result);
  }

  /** A failed sign-in of `mode`, named by the error that refused it. */
  failed(req: FastifyRequest, mode: SignInMode, err: unknown, user?: SignInEvent['user']): void {
    const detail = err instanceof CodedError ? err.message : undefined;
    this.record(req, {
      mode,
      result: 'failure',
      reason: reasonOf(err),
      ...(detail === undefined ? {} : { detail }),
      ...(user === undefined ? {} : { user }),
    });
  }

  /**
   * Authenticates the request, observing it: API keys presented are counted by result; a header
   * credential (API key, Bearer JWT) or a proxy's identity refused is a failed sign-in. Successes
   * of those are per request, so they are counted but not logged. Synchronous when the
   * authenticator decides from memory.
   */
  authenticate(
    authenticator: Authenticator,
    req: FastifyRequest,
    reply: FastifyReply,
    now: number,
    presented: PresentedCredential = presentedCredential(req.headers),
  ): MaybePromise<Authentication> {
    let outcome: MaybePromise<Authentication>;
    try {
      outcome = authenticator.authenticate(req, reply, now, presented);
    } catch (err) {
      return this.refused(req, presented.kind, err);
    }
    if (!(outcome instanceof Promise)) return this.admitted(outcome);
    return outcome.then(
      (authentication) => this.admitted(authentication),
      (err: unknown) => this.refused(req, presented.kind, err),
    );
  }

  private admitted(authentication: Authentication): Authentication {
    if (authentication.principal?.via === 'api-key') this.metrics.apiKeyVerified('valid');
    return authentication;
  }

  /** Counts and logs a refused credential, then throws the refusal on. */
  private refused(
    req: FastifyRequest,
    credential: PresentedCredential['kind'],
    err: unknown,
  ): never {
    if (credential === 'api-key') this.metrics.apiKeyVerified('invalid');
    const mode = this.failedMode(req, credential);
    if (mode !== undefined) this.failed(req, mode, err, this.claimed(req, mode));
    throw err;
  }

  private failedMode(
    req: FastifyRequest,
    credential: ReturnType<typeof presentedCredential>['kind'],
  ): SignInMode | undefined {
    switch (credential) {
      case 'api-key':
        return 'api-key';
      case 'jwt':
        return 'bearer';
      case 'malformed':
        return req.headers['x-api-key'] !== undefined ? 'api-key' : 'bearer';
      case 'none':
        return this.options.mode === 'proxy' ? 'proxy' : undefined;
    }
  }

  /** Who a refused proxy sign-in claimed to be: the user header's name (not a secret). */
  private claimed(req: FastifyRequest, mode: SignInMode): SignInEvent['user'] {
    if (mode !== 'proxy') return undefined;
    const name = req.headers[this.options.proxyUserHeader.toLowerCase()];
    return typeof name === 'string' ? { username: name } : undefined;
  }
}
