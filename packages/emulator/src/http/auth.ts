import { errors } from '../core/errors';

/** Who signed a request: OCI's API-key `keyId` is `<tenancy>/<user>/<fingerprint>`. */
export interface Principal {
  tenancyId: string;
  userId: string;
  fingerprint: string;
}

/**
 * Accepts requests that carry an OCI HTTP signature (`Authorization: Signature …keyId="…"…`)
 * and identifies the caller from its keyId; an unsigned or malformed request is 401
 * NotAuthenticated, as OCI answers. The signature itself is not verified yet (see README).
 */
export function principalFrom(authorization: string | undefined): Principal {
  if (!authorization) throw errors.notAuthenticated('The request is not signed: the Authorization header is missing.');
  const match = /^Signature\s+(.*)$/i.exec(authorization.trim());
  if (!match) throw errors.notAuthenticated('The Authorization header is not an OCI request signature.');
  const fields = new Map<string, string>();
  for (const part of match[1].matchAll(/([a-zA-Z]+)="([^"]*)"/g)) fields.set(part[1], part[2]);
  const keyId = fields.get('keyId');
  if (!keyId || !fields.get('signature')) {
    throw errors.notAuthenticated('The request signature lacks keyId or signature.');
  }
  const [tenancyId, userId, fingerprint] = keyId.split('/');
  if (!tenancyId || !userId || !fingerprint) {
    throw errors.notAuthenticated(`The signature keyId '${keyId}' is not of the form <tenancy>/<user>/<fingerprint>.`);
  }
  return { tenancyId, userId, fingerprint };
}
