/** Who signed a request: OCI's API-key `keyId` is `<tenancy>/<user>/<fingerprint>` (see signature.ts). */
export interface Principal {
  tenancyId: string;
  userId: string;
  fingerprint: string;
}
