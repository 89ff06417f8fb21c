import {
  IncorrectPassphraseError,
  PassphraseError,
  passphraseFromEnv,
  SecretValueError,
  type SymmetricCrypter,
} from '../secrets/passphrase';
import { ensureSalt, stackCrypter } from '../secrets/stack-crypter';
import { containsSecure, mapSecure, showConfigPath } from './config-path';
import type { Project } from './project';
import { applyProjectConfig, configText, projectValues } from './project-config';
import { ProjectError } from './project-error';
import { StackConfigFile } from './stack-config';
import { configJson } from './config-json';

export interface StackConfig {
  file: StackConfigFile;
  /** Every value in plain text, keyed `<namespace>:<key>`. */
  values: Record<string, string>;
  secretKeys: string[];
  crypter: SymmetricCrypter;
  /**
   * The config as an update records it (the target's config.Map: secrets as their `{ secure }`
   * ciphertext, objects as objects), the project's defaults and values included.
   */
  recorded: Record<string, unknown>;
}

/**
 * Reads Pulumi.<stack>.yaml, decrypts its secure values with the stack's passphrase, and merges in
 * Pulumi.yaml's project config (defaults and values; stack values win) after Pulumi's checks.
 */
export function loadStackConfig(project: Project, stack: string, env: NodeJS.ProcessEnv = process.env): StackConfig {
  const file = StackConfigFile.open(project, stack);
  // Values from Pulumi ESC environments need Pulumi Cloud: as Pulumi's DIY backend (openStackEnv),
  // refuse the run rather than run the program without them.
  if (file.environment !== undefined)
    throw new ProjectError(
      `${file.path} imports ESC environments (environment: ${JSON.stringify(file.environment)}), which need Pulumi Cloud: ` +
        'backend ocikit does not support environments (move their values into config:)',
    );
  const crypter = stackCrypter(file, env);
  // A passphrase given for a stack with a salt is checked before the run, as Pulumi makes the
  // stack's secrets manager first (getAndSaveSecretsManager, whatever the config holds): a wrong
  // one must not fail the run half-way, when a step's state holds a secret to encrypt.
  const passphraseProvider = (file.secretsProvider ?? 'passphrase') === 'passphrase';
  if (file.encryptionSalt && passphraseProvider && passphraseFromEnv(env) !== undefined)
    withCrypterWords(DECRYPT_WORDS.run, () => crypter.encrypt(''));
  const values: Record<string, string> = {};
  const secretKeys: string[] = [];
  const objects = new Set<string>();
  for (const [key, entry] of file.entries()) {
    const object = file.object(key);
    if (object !== undefined) objects.add(key);
    if (object !== undefined && containsSecure(object)) {
      // An object holding a secure value (`config set --path --secret`) is passed decrypted, and the
      // whole key is secret, as Pulumi does.
      values[key] = configJson(decryptSecure(object, crypter, DECRYPT_WORDS.run));
      secretKeys.push(key);
      continue;
    }
    values[key] = entry.secure
      ? String(decryptSecure({ secure: entry.value }, crypter, DECRYPT_WORDS.run))
      : entry.value;
    if (entry.secure) secretKeys.push(key);
  }
  ensureSalt(file, env, crypter);
  const merged = applyProjectConfig(project.name, project.config, stack, { values, secretKeys, objects });
  const recorded: Record<string, unknown> = {};
  for (const [key, entry] of file.entries())
    recorded[key] = entry.secure ? { secure: entry.value } : (file.object(key) ?? entry.value);
  for (const [key, given] of projectValues(project.name, project.config))
    if (!(key in recorded)) recorded[key] = typeof given === 'object' && given !== null ? given : configText(given);
  return { file, values: merged, secretKeys, crypter, recorded };
}

/**
 * Pulumi's words around a config secret it cannot read: `crypter` before the reason the stack's
 * decrypter cannot be made (no or wrong passphrase), `value` before a value it cannot decrypt.
 */
export const DECRYPT_WORDS = {
  // preview, up, refresh, destroy: getAndSaveSecretsManager (pkg/cmd/pulumi/config), its error
  // wrapped by each command's RunE (operations/preview.go, up.go, refresh.go, destroy.go:
  // "getting stack configuration: %w"), then the engine's Config.Decrypt (pkg/engine/update.go).
  run: { crypter: 'getting stack configuration: get stack secrets manager', value: 'failed to decrypt config' },
  // config get (config_get.go).
  get: { crypter: 'could not create a decrypter', value: 'could not decrypt configuration value' },
  // config --show-secrets (listConfig): the decrypter's own error as it is.
  list: { crypter: undefined, value: 'could not decrypt configuration value' },
  // config cp of a key (copySingleConfigKey); the value's own error as it is (Value.Copy).
  copy: { crypter: 'could not create a decrypter', value: undefined },
  // stack history --show-secrets (stack_history.go: "decrypting secrets: %w" of GetDecrypter's
  // error); a value it cannot decrypt is shown as ERROR_UNABLE_TO_DECRYPT.
  history: { crypter: 'decrypting secrets', value: undefined },
};

/** One command's words (see DECRYPT_WORDS). */
export type DecryptWords = { crypter: string | undefined; value: string | undefined };

/**
 * A config value (plain JS, secure values as `{ secure }` at any depth) with its secure values
 * decrypted, failing as Pulumi fails: a wrong passphrase is Pulumi's bare `incorrect passphrase`
 * (ErrIncorrectPassphrase), and a value that cannot be decrypted is named by its path inside an
 * object value only, never by its key (resource/config object.go decrypt). `then` maps each
 * plaintext (to encrypt it again, for `config cp`).
 */
export function decryptSecure(
  raw: unknown,
  crypter: SymmetricCrypter,
  words: DecryptWords,
  then: (plaintext: string) => unknown = (plaintext) => plaintext,
): unknown {
  return mapSecure(raw, (ciphertext, path) => {
    try {
      return then(crypter.decrypt(ciphertext));
    } catch (error) {
      if (error instanceof SecretValueError) {
        const reason = `${path.length ? `${showConfigPath(path)}: ` : ''}${error.message}`;
        throw new SecretValueError(words.value ? `${words.value}: ${reason}` : reason);
      }
      throw crypterError(error, words);
    }
  });
}

/** A PassphraseError in a command's words: Pulumi's bare `incorrect passphrase` after `crypter`. */
function crypterError(error: unknown, words: DecryptWords): unknown {
  if (!(error instanceof PassphraseError)) return error;
  const reason = error instanceof IncorrectPassphraseError ? 'incorrect passphrase' : error.message;
  return new PassphraseError(words.crypter ? `${words.crypter}: ${reason}` : reason);
}

function withCrypterWords(words: DecryptWords, f: () => unknown): void {
  try {
    f();
  } catch (error) {
    throw crypterError(error, words);
  }
}
