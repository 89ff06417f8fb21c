import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newOcid } from './ids';
import type { Store } from '../store/store';

/** The tenancy, user and API key a data directory is born with. */
export interface Credentials {
  tenancyId: string;
  userId: string;
  fingerprint: string;
  privateKeyPem: string;
}

/** OCI's API-key fingerprint: MD5 of the DER public key, as colon-separated hex. */
export function fingerprintOf(publicKeyDer: Buffer): string {
  return createHash('md5').update(publicKeyDer).digest('hex').match(/../g)!.join(':');
}

/**
 * Loads the data directory's credentials, creating them on first start: a tenancy, a user and
 * a 2048-bit RSA API key, kept in the database so every restart serves the same identity.
 */
export function loadOrCreateCredentials(store: Store): Credentials {
  const saved = store.getMeta('credentials');
  if (saved) return JSON.parse(saved) as Credentials;
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const credentials: Credentials = {
    tenancyId: newOcid('tenancy'),
    userId: newOcid('user'),
    fingerprint: fingerprintOf(publicKey.export({ type: 'spki', format: 'der' })),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
  store.setMeta('credentials', JSON.stringify(credentials));
  return credentials;
}

/**
 * Writes an OCI config file (profile DEFAULT) and its key beside it, so any OCI SDK or the
 * OCI CLI can sign requests for this emulator. Returns the config file's path.
 */
export function writeOciConfig(dir: string, credentials: Credentials, region: string, url: string): string {
  mkdirSync(dir, { recursive: true });
  const keyFile = join(dir, 'oci_api_key.pem');
  writeFileSync(keyFile, credentials.privateKeyPem, { mode: 0o600 });
  const configFile = join(dir, 'config');
  writeFileSync(
    configFile,
    [
      `# Written by the ocikit emulator. Point the SDK clients' endpoint at ${url}`,
      `# (or ${url}/r/<region> for another region).`,
      '[DEFAULT]',
      `user=${credentials.userId}`,
      `fingerprint=${credentials.fingerprint}`,
      `key_file=${keyFile}`,
      `tenancy=${credentials.tenancyId}`,
      `region=${region}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  return configFile;
}
