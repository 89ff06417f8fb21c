import * as common from 'oci-common';

/** Who signs: a tenancy, user and private key the emulator knows (or deliberately does not). */
export interface SigningIdentity {
  tenancyId: string;
  userId: string;
  fingerprint: string;
  privateKeyPem: string;
}

export interface SignedRequestInit {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as given; signed as given unless `signedBody` is set (tampering: keep the same length). */
  body?: string;
  signedBody?: string;
}

/** The SDK's authentication provider for an identity. */
export function providerFor(identity: SigningIdentity): common.SimpleAuthenticationDetailsProvider {
  return new common.SimpleAuthenticationDetailsProvider(
    identity.tenancyId,
    identity.userId,
    identity.fingerprint,
    identity.privateKeyPem,
    null,
  );
}

/** Reads an identity from an OCI config file (the emulator writes one). */
export function identityFromConfig(configFile: string): SigningIdentity {
  const provider = new common.ConfigFileAuthenticationDetailsProvider(configFile, 'DEFAULT');
  return {
    tenancyId: provider.getTenantId(),
    userId: provider.getUser(),
    fingerprint: provider.getFingerprint(),
    privateKeyPem: provider.getPrivateKey(),
  };
}

const signers = new WeakMap<SigningIdentity, common.DefaultRequestSigner>();

/**
 * The headers the official SDK would send for a request: signed by oci-common's own
 * DefaultRequestSigner (the one signer tests use), so raw-HTTP tests sign exactly as clients do.
 */
export async function signedHeaders(
  identity: SigningIdentity,
  url: string,
  init: SignedRequestInit = {},
): Promise<Record<string, string>> {
  const headers = new Headers(init.headers ?? {});
  const method = (init.method ?? 'GET').toUpperCase();
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  let signer = signers.get(identity);
  if (!signer) signers.set(identity, (signer = new common.DefaultRequestSigner(providerFor(identity))));
  const body = init.signedBody ?? init.body;
  await signer.signHttpRequest({ method, uri: url, headers, body } as common.HttpRequest);
  return Object.fromEntries(headers.entries());
}

/** fetch, signed as the SDK signs. */
export async function signedFetch(
  identity: SigningIdentity,
  url: string,
  init: SignedRequestInit = {},
): Promise<Response> {
  const headers = await signedHeaders(identity, url, init);
  return fetch(url, { method: init.method ?? 'GET', headers, body: init.body });
}
