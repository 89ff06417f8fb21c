import type { StackConfigFile } from '../project/stack-config';
import {
  crypterFromState,
  MISSING_PASSPHRASE,
  newEncryptionState,
  PassphraseError,
  passphraseFromEnv,
  type SymmetricCrypter,
} from './passphrase';
import type { Crypter } from '../engine/types';

/**
 * The stack's passphrase crypter, made on first use: deriving the key costs about a second
 * (1,000,000 PBKDF2 rounds), and a stack without secrets never needs a passphrase. A stack without
 * an `encryptionsalt` gets one on its first secret, written to Pulumi.<stack>.yaml as
 * `pulumi stack init` would have done.
 */
export function stackCrypter(file: StackConfigFile, env: NodeJS.ProcessEnv = process.env): SymmetricCrypter & Crypter {
  let crypter: SymmetricCrypter | undefined;
  const others = new Map<string, SymmetricCrypter>();
  const passphrase = (): string => {
    const phrase = passphraseFromEnv(env);
    if (phrase === undefined) throw new PassphraseError(MISSING_PASSPHRASE);
    return phrase;
  };
  const existing = (): SymmetricCrypter | undefined => {
    if (!crypter && file.encryptionSalt) crypter = crypterFromState(passphrase(), file.encryptionSalt);
    return crypter;
  };
  const self: SymmetricCrypter & Crypter = {
    encrypt(plaintext) {
      if (!existing()) {
        const created = newEncryptionState(passphrase());
        file.encryptionSalt = created.state;
        file.save();
        crypter = created.crypter;
      }
      return crypter!.encrypt(plaintext);
    },
    decrypt(ciphertext) {
      const found = existing();
      if (!found) throw new PassphraseError(`${file.path} has secure values but no encryptionsalt`);
      return found.decrypt(ciphertext);
    },
    // A state written under another salt (Pulumi.<stack>.yaml made again since, or a stack
    // imported): its key is derived on its first secret, as this file's is.
    forSalt(salt) {
      if (salt === file.encryptionSalt) return self;
      return {
        encrypt: (plaintext) => self.encrypt(plaintext),
        decrypt(ciphertext) {
          let other = others.get(salt);
          if (!other) others.set(salt, (other = crypterFromState(passphrase(), salt)));
          return other.decrypt(ciphertext);
        },
      };
    },
  };
  return self;
}
