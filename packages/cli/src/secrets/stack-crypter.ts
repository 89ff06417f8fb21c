import { containsSecure } from '../project/config-path';
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
  // Secure values made by another secrets provider (a KMS key, Vault; Pulumi Cloud's when the file
  // names none and has no salt) cannot be read with a passphrase, and a passphrase salt added
  // beside them would make values that provider cannot read.
  const provider = file.secretsProvider;
  const otherProvider = () =>
    new PassphraseError(
      `${file.path} uses the secrets provider '${provider}', and ocikit has only the passphrase provider: ` +
        'move the stack to it with `pulumi stack change-secrets-provider passphrase`',
    );
  const existing = (): SymmetricCrypter | undefined => {
    if (provider !== undefined && provider !== 'passphrase') throw otherProvider();
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
      if (!found)
        throw new PassphraseError(
          `${file.path} has secure values but no encryptionsalt: they were made by another secrets provider ` +
            "(Pulumi Cloud's, by default); set them again with `ocikit config set --secret`, or move the stack to " +
            'the passphrase provider with `pulumi stack change-secrets-provider passphrase`',
        );
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

/**
 * Pulumi's BlindingProvider (pkg/backend/secrets): every secret of a state read with it is
 * `"[secret]"`, without a passphrase (or any provider's credentials), for a command that shows
 * secrets masked anyway (`stack output` without `--show-secrets`). It writes nothing.
 */
export const blindingCrypter: Crypter = {
  encrypt() {
    throw new Error('a state read blind cannot be written');
  },
  decrypt: () => '"[secret]"',
  forSalt: () => blindingCrypter,
};

/**
 * Gives a stack of the passphrase provider its salt now, when the passphrase is given and
 * Pulumi.<stack>.yaml has none, as Pulumi makes a DIY stack's secrets manager when it creates the
 * stack and before every run: SecretsManagerLoader.GetSecretsManager (pkg/cmd/pulumi/stack) asks a
 * stack without a salt for the backend's DefaultSecretManager,
 * passphrase.NewPromptingPassphraseSecretsManager, which makes one
 * (pkg/secrets/passphrase/manager.go), and the config file is saved with it; every checkpoint then
 * names it in `secrets_providers` (SerializeDeployment, the snapshot's SecretsManager). Without a
 * passphrase the salt waits for the first secret; and none is made beside secure values another
 * provider made (a file with no salt but secure values, Pulumi Cloud's by default).
 */
export function ensureSalt(
  file: StackConfigFile,
  env: NodeJS.ProcessEnv = process.env,
  crypter = stackCrypter(file, env),
): void {
  const passphraseProvider = (file.secretsProvider ?? 'passphrase') === 'passphrase';
  if (file.encryptionSalt || !passphraseProvider || passphraseFromEnv(env) === undefined) return;
  for (const [key, entry] of file.entries()) if (entry.secure || containsSecure(file.object(key))) return;
  crypter.encrypt('');
}
