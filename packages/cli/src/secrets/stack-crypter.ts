import type { StackConfigFile } from '../project/stack-config';
import {
  crypterFromState,
  MISSING_PASSPHRASE,
  newEncryptionState,
  PassphraseError,
  passphraseFromEnv,
  type SymmetricCrypter,
} from './passphrase';

/**
 * The stack's passphrase crypter, made on first use: deriving the key costs about a second
 * (1,000,000 PBKDF2 rounds), and a stack without secrets never needs a passphrase. A stack without
 * an `encryptionsalt` gets one on its first secret, written to Pulumi.<stack>.yaml as
 * `pulumi stack init` would have done.
 */
export function stackCrypter(file: StackConfigFile, env: NodeJS.ProcessEnv = process.env): SymmetricCrypter {
  let crypter: SymmetricCrypter | undefined;
  const passphrase = (): string => {
    const phrase = passphraseFromEnv(env);
    if (phrase === undefined) throw new PassphraseError(MISSING_PASSPHRASE);
    return phrase;
  };
  const existing = (): SymmetricCrypter | undefined => {
    if (!crypter && file.encryptionSalt) crypter = crypterFromState(passphrase(), file.encryptionSalt);
    return crypter;
  };
  return {
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
  };
}
