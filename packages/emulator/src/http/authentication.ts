import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { errors } from '../core/errors';
import type { Identities } from '../core/identities';
import type { Principal } from './auth';
import { VerifiedSignatures, checkBodyDigest, parseSignature, verifySignature } from './signature';

/** `signature`: OCI request signatures are verified (the default). `none`: any caller is accepted. */
export type AuthMode = 'signature' | 'none';

export interface AuthenticationOptions {
  mode: AuthMode;
  identities: Identities;
  /** Who an unsigned request acts as under `--auth none`: the data directory's first user. */
  defaultPrincipal: Principal;
  /** Wall-clock time for the date check; the adjustable lifecycle clock does not move it. */
  now?: () => number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by authentication when the signature covers x-content-sha256: compares the body's bytes. */
    checkRawBody?: (raw: Buffer | undefined) => void;
  }
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * The admin API's guard: `Authorization: Bearer <admin token>` on every call but the health
 * check (compared in constant time).
 */
export function adminTokenCheck(adminToken: string): (request: FastifyRequest) => void {
  const expected = digest(adminToken);
  return (request) => {
    if (request.method === 'GET' && request.routeOptions.url === '/_ocikit/health') return;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match) throw errors.notAuthenticated('The admin API needs an "Authorization: Bearer <admin token>" header.');
    if (!timingSafeEqual(digest(match[1]), expected)) throw errors.notAuthenticated('The admin token is wrong.');
  };
}

/**
 * Who signed an OCI request: the verified signature's keyId (or, under `--auth none`, whoever
 * the keyId names, else the first user). When the signature covers x-content-sha256, the body
 * parser compares it with the body's bytes through `request.checkRawBody`.
 */
export function ociAuthentication(options: AuthenticationOptions): (request: FastifyRequest) => Principal {
  const now = options.now ?? Date.now;
  if (options.mode === 'none') {
    return (request) => {
      try {
        const { tenancyId, userId, fingerprint } = parseSignature(request.headers.authorization);
        if (options.identities.isTenancy(tenancyId)) return { tenancyId, userId, fingerprint };
      } catch {
        // --auth none: anything goes, and it acts as the first user.
      }
      return options.defaultPrincipal;
    };
  }
  const alreadyVerified = new VerifiedSignatures();
  return (request) => {
    const verified = verifySignature(
      { method: request.method, url: request.url, headers: request.headers },
      now(),
      (keyId) => options.identities.publicKey(keyId),
      alreadyVerified,
    );
    const signedDigest = verified.bodyDigest;
    if (signedDigest !== undefined) {
      let checked = false;
      request.checkRawBody = (raw) => {
        if (checked) return;
        checked = true;
        checkBodyDigest(signedDigest, raw);
      };
    }
    return verified.principal;
  };
}
