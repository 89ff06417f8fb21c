import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { goPathError } from '../errors';

/**
 * Pulumi's passphrase secrets provider, byte-compatible with pulumi/pulumi
 * (`sdk/go/common/resource/config/crypt.go`, `pkg/secrets/passphrase/manager.go`):
 * key = PBKDF2-SHA256(passphrase, salt, 1,000,000 iterations, 32 bytes); values are AES-256-GCM
 * `v1:<base64 nonce(12)>:<base64 ciphertext||tag>`; a stack's `encryptionsalt` is
 * `v1:<base64 salt(8)>:<the value "pulumi" encrypted with that key>`, which checks the passphrase.
 */
export const PBKDF2_ITERATIONS = 1_000_000;

export class PassphraseError extends Error {}

/** The passphrase does not open the stack's `encryptionsalt`. */
export class IncorrectPassphraseError extends PassphraseError {}

/**
 * A value the stack's key cannot decrypt (corrupt, or made with another key): the passphrase is
 * right, the value is not. Its message is Pulumi's symmetricCrypter's (crypt.go DecryptValue).
 */
export class SecretValueError extends PassphraseError {}

export interface SymmetricCrypter {
  encrypt(plaintext: string): string;
  decrypt(ciphertext: string): string;
}

export function deriveKey(passphrase: string, salt: Buffer): Buffer {
  return pbkdf2Sync(Buffer.from(passphrase, 'utf8'), salt, PBKDF2_ITERATIONS, 32, 'sha256');
}

export function symmetricCrypter(key: Buffer): SymmetricCrypter {
  return {
    encrypt(plaintext) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `v1:${nonce.toString('base64')}:${sealed.toString('base64')}`;
    },
    decrypt(value) {
      const parts = value.split(':');
      if (parts.length !== 3) throw new SecretValueError('bad value');
      if (parts[0] !== 'v1') throw new SecretValueError('unknown value version');
      const nonce = decodeBase64(parts[1]);
      const sealed = decodeBase64(parts[2]);
      if (nonce.length !== 12) throw new SecretValueError('bad value: nonce size is incorrect');
      // The key opened the salt: a value it cannot open is corrupt, not a wrong passphrase (Go's
      // AES-GCM Open error; a ciphertext shorter than its tag fails the same way).
      const failed = () => new SecretValueError('cipher: message authentication failed');
      if (sealed.length < 16) throw failed();
      const decipher = createDecipheriv('aes-256-gcm', key, nonce);
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      try {
        return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw failed();
      }
    },
  };
}

/**
 * Base64 as Go's StdEncoding decodes it, which Node's lenient decoder does not: padded, nothing
 * outside the alphabet; a bad value names the byte where it goes wrong (crypt.go: `bad value: …`).
 */
function decodeBase64(text: string): Buffer {
  const invalid = text.search(/[^A-Za-z0-9+/=]|=(?!=?$)/);
  const at = invalid >= 0 ? invalid : text.length % 4 ? text.length - (text.length % 4) : -1;
  if (at >= 0) throw new SecretValueError(`bad value: illegal base64 data at input byte ${at}`);
  return Buffer.from(text, 'base64');
}

/** Pulumi's words for a wrong passphrase (its locked passphrase manager's), with the way out. */
const INCORRECT =
  'incorrect passphrase, please set PULUMI_CONFIG_PASSPHRASE to the correct passphrase or set PULUMI_CONFIG_PASSPHRASE_FILE to a file containing the passphrase';

/** Crypter for an existing `encryptionsalt`; throws PassphraseError when the passphrase is wrong. */
export function crypterFromState(passphrase: string, state: string): SymmetricCrypter {
  const first = state.indexOf(':');
  const second = state.indexOf(':', first + 1);
  if (first < 0 || second < 0) throw new PassphraseError('malformed encryptionsalt');
  if (state.slice(0, first) !== 'v1') throw new PassphraseError('unknown encryptionsalt version');
  const crypter = symmetricCrypter(deriveKey(passphrase, Buffer.from(state.slice(first + 1, second), 'base64')));
  let check: string;
  try {
    check = crypter.decrypt(state.slice(second + 1));
  } catch {
    check = '';
  }
  if (check !== 'pulumi') throw new IncorrectPassphraseError(INCORRECT);
  return crypter;
}

/** A fresh salt and its crypter, as `pulumi stack init` makes them. */
export function newEncryptionState(passphrase: string): { state: string; crypter: SymmetricCrypter } {
  const salt = randomBytes(8);
  const crypter = symmetricCrypter(deriveKey(passphrase, salt));
  return { state: `v1:${salt.toString('base64')}:${crypter.encrypt('pulumi')}`, crypter };
}

/**
 * The passphrase from PULUMI_CONFIG_PASSPHRASE (an empty value counts, as in Pulumi) or the file
 * named by PULUMI_CONFIG_PASSPHRASE_FILE (trimmed); undefined when neither is set.
 */
export function passphraseFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.PULUMI_CONFIG_PASSPHRASE !== undefined) return env.PULUMI_CONFIG_PASSPHRASE;
  const file = env.PULUMI_CONFIG_PASSPHRASE_FILE;
  if (file) {
    // As Pulumi's readPassphrase: the absolute path, and os.ReadFile's error in Go's words.
    const path = resolve(file);
    try {
      return readFileSync(path, 'utf8').trim();
    } catch (error) {
      throw new PassphraseError(`unable to read PULUMI_CONFIG_PASSPHRASE_FILE: ${goPathError(error, path)}`);
    }
  }
  return undefined;
}

export const MISSING_PASSPHRASE =
  'passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables';
