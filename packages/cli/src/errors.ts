/** A failure the user can fix (bad flag, missing file, locked stack…): one line, exit 1, no stack trace. */
export class UserError extends Error {}

/** Errors whose message is already a one-line reason for the user. */
const USER_ERRORS = new Set([
  'UserError',
  'ProjectError',
  'PassphraseError',
  'StackLockedError',
  'StackStateError',
  'InvalidArgumentError',
]);

export function isUserError(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  let proto: object | null = Object.getPrototypeOf(error);
  while (proto && proto !== Error.prototype) {
    if (USER_ERRORS.has((proto as { constructor: { name: string } }).constructor.name)) return true;
    proto = Object.getPrototypeOf(proto);
  }
  return USER_ERRORS.has(error.name);
}

/** The first line of an error's message. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n').find((line) => line.trim()) ?? 'unknown error';
}
