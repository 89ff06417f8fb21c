import { createHash, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { newOcid } from './ids';
import type { Store } from '../store/store';

/** The tenancy, user and API key a data directory is born with. */
export interface Credentials {
  tenancyId: string;
  userId: string;
  fingerprint: string;
  privateKeyPem: string;
  /** The file the private key is kept in, when not in the database (see loadOrCreateCredentials). */
  apiKeyFile?: string;
}

/** OCI's API-key fingerprint: MD5 of the DER public key, as colon-separated hex. */
export function fingerprintOf(publicKeyDer: Buffer): string {
  return createHash('md5').update(publicKeyDer).digest('hex').match(/../g)!.join(':');
}

function newPrivateKeyPem(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

function fingerprintOfPrivateKey(privateKeyPem: string): string {
  return fingerprintOf(createPublicKey(privateKeyPem).export({ type: 'spki', format: 'der' }));
}

/**
 * Loads the data directory's credentials, creating them on first start: a tenancy, a user and
 * a 2048-bit RSA API key, kept in the database so every restart serves the same identity.
 *
 * With `apiKeyFile`, the private key lives in that file instead (created there, 0600, if it is
 * not there yet), and the database keeps the tenancy, the user and the file's path, so later
 * starts without the option use the same file: ocikit's embedded emulator passes a file of the
 * user's, so that no private key lies in a program's `.ocikit/`. A key the database held before
 * is removed from it. The file's key is registered for the user by `Identities`.
 */
export function loadOrCreateCredentials(store: Store, apiKeyFile?: string): Credentials {
  const saved = store.getMeta('credentials');
  const identity = saved
    ? (JSON.parse(saved) as Partial<Credentials>)
    : { tenancyId: newOcid('tenancy'), userId: newOcid('user') };
  const { tenancyId, userId } = identity as Credentials;
  const keyFile = apiKeyFile ?? identity.apiKeyFile;
  if (keyFile !== undefined) {
    // The file is read before the database names it: one that holds no key is not remembered.
    const privateKeyPem = readOrCreateKeyFile(keyFile);
    let fingerprint: string;
    try {
      fingerprint = fingerprintOfPrivateKey(privateKeyPem);
    } catch (error) {
      throw new Error(`the API key file ${keyFile} holds no private key (${(error as Error).message})`, {
        cause: error,
      });
    }
    if (identity.privateKeyPem !== undefined || identity.apiKeyFile !== keyFile)
      store.setMeta('credentials', JSON.stringify({ tenancyId, userId, apiKeyFile: keyFile }));
    return { tenancyId, userId, fingerprint, privateKeyPem, apiKeyFile: keyFile };
  }
  if (identity.privateKeyPem !== undefined) return identity as Credentials;
  const privateKeyPem = newPrivateKeyPem();
  const credentials: Credentials = {
    tenancyId,
    userId,
    fingerprint: fingerprintOfPrivateKey(privateKeyPem),
    privateKeyPem,
  };
  store.setMeta('credentials', JSON.stringify(credentials));
  return credentials;
}

/**
 * The PEM in `file`, or a new key put there first. It is written whole beside it and linked into
 * place, which fails if the file exists: two first starts at once agree on one key, and neither
 * reads a half-written file.
 */
function readOrCreateKeyFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const written = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(written, newPrivateKeyPem(), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(written, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(written, { force: true });
  }
  return readFileSync(file, 'utf8');
}

/**
 * Writes an OCI config file (profile DEFAULT) and its key beside it (or names the key's own file,
 * `apiKeyFile`), so any OCI SDK or the OCI CLI can sign requests for this emulator. Returns the
 * config file's path.
 */
export function writeOciConfig(dir: string, credentials: Credentials, region: string, url: string): string {
  mkdirSync(dir, { recursive: true });
  let keyFile = join(dir, 'oci_api_key.pem');
  if (credentials.apiKeyFile === undefined) writeFileSync(keyFile, credentials.privateKeyPem, { mode: 0o600 });
  else {
    // The key is kept in its own file; one an earlier start wrote here goes.
    rmSync(keyFile, { force: true });
    keyFile = credentials.apiKeyFile;
  }
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
