import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { errors } from '../core/errors';
import type { Identities } from '../core/identities';
import type { Principal } from './auth';
import { checkBodyDigest, parseSignature, verifySignature } from './signature';

/** `signature`: OCI request signatures are verified (the default). `none`: any caller is accepted. */
export type AuthMode = 'signature' | 'none';

export interface AuthenticationOptions {
  mode: AuthMode;
  identities: Identities;
  /** The admin API's bearer token. */
  adminToken: string;
  /** Who an unsigned request acts as under `--auth none`: the data directory's first user. */
  defaultPrincipal: Principal;
  /** Wall-clock time for the date check; the adjustable lifecycle clock does not move it. */
  now?: () => number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed x-content-sha256, compared with the body when it is read. */
    bodyDigest?: string;
    bodyDigestChecked: boolean;
  }
}

const ADMIN_PREFIX = '/_ocikit/';
const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * Who may call what: OCI routes need a verified request signature (or nothing under
 * `--auth none`), the admin API its bearer token, except the health check. Unknown routes are
 * left to the not-found handler, so a typo answers 404, not 401.
 */
export function createAuthentication(options: AuthenticationOptions) {
  const now = options.now ?? Date.now;
  const tokenDigest = digest(options.adminToken);

  const checkAdminToken = (request: FastifyRequest): void => {
    if (request.method === 'GET' && request.routeOptions.url === '/_ocikit/health') return;
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw errors.notAuthenticated('The admin API needs an "Authorization: Bearer <admin token>" header.');
    if (!timingSafeEqual(digest(match[1]), tokenDigest)) throw errors.notAuthenticated('The admin token is wrong.');
  };

  const principalWithoutVerification = (request: FastifyRequest): Principal => {
    try {
      const { tenancyId, userId, fingerprint } = parseSignature(request.headers.authorization);
      if (options.identities.isTenancy(tenancyId)) return { tenancyId, userId, fingerprint };
    } catch {
      // --auth none: anything goes, and it acts as the first user.
    }
    return options.defaultPrincipal;
  };

  return {
    /** onRequest hook: authenticates the request and sets `request.principal` for OCI routes. */
    authenticate(request: FastifyRequest): void {
      if (request.routeOptions.url === undefined) return;
      if (request.url.startsWith(ADMIN_PREFIX)) return checkAdminToken(request);
      if (options.mode === 'none') {
        request.principal = principalWithoutVerification(request);
        return;
      }
      const verified = verifySignature(
        { method: request.method, url: request.url, headers: request.headers },
        now(),
        (keyId) => options.identities.publicKey(keyId),
      );
      request.principal = verified.principal;
      request.bodyDigest = verified.bodyDigest;
    },

    /** Compares the signed digest with the body's bytes; call from every body parser, and once more before validation. */
    checkBody(request: FastifyRequest, body: Buffer | undefined): void {
      if (request.bodyDigestChecked) return;
      request.bodyDigestChecked = true;
      checkBodyDigest(request.bodyDigest, body);
    },
  };
}

export type Authentication = ReturnType<typeof createAuthentication>;
