// Pulumi's guard on `config set` (pkg/cmd/pulumi/config: looksLikeSecret): a plaintext value under
// a key whose name says password, secret or token, and whose first 16 characters have the entropy
// of a credential, is refused unless --secret or --plaintext says what the user meant.
//
// Entropy is zxcvbn's, as Pulumi's (github.com/ccojocar/zxcvbn-go, a port of zxcvbn 1.x that
// reports entropy in bits). zxcvbn 3.5.0 is the last JavaScript release that still reports it (4.x
// reports guesses instead); its dictionaries (3 MB) load only when a key's name calls for the check.
import { createRequire } from 'node:module';

const KEY_PATTERN = /passwd|pass|password|pwd|secret|token/i;
const MAX_ENTROPY_CHECK_LENGTH = 16;
const ENTROPY_THRESHOLD = 80;
const ENTROPY_PER_CHAR_THRESHOLD = 3;

type Zxcvbn = (password: string) => { entropy: number };

/** `name` is the key's name without its namespace (config.Key.Name()). */
export function looksLikeSecret(name: string, value: string): boolean {
  if (!KEY_PATTERN.test(name)) return false;
  const v = [...value].slice(0, MAX_ENTROPY_CHECK_LENGTH).join('');
  if (!v) return false;
  const zxcvbn = createRequire(__filename)('zxcvbn') as Zxcvbn;
  const { entropy } = zxcvbn(v);
  return (
    entropy >= ENTROPY_THRESHOLD ||
    (entropy >= ENTROPY_THRESHOLD / 2 && entropy / [...v].length >= ENTROPY_PER_CHAR_THRESHOLD)
  );
}
