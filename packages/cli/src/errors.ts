/**
 * Pulumi's exit codes for the failures ocikit tells apart (pkg/cmd/pulumi/cmd/exit_codes.go
 * ExitCodeFor, "part of the contract for automation and agent integrations"); any other failure,
 * and a bail (a failed step, a declined confirmation), exits 1.
 */
export const ExitCode = {
  /** NoConfirmationInNonInteractiveError (and ConfigurationError: malformed input). */
  configuration: 2,
  /** StackNotFoundError, NoStacksError, NoStackSelectedError, StackStateNotFoundError. */
  stackNotFound: 6,
  /** NoChangesExpectedError: --expect-no-changes, and changes. */
  noChanges: 7,
  /** CancelledError ("update cancelled", "destroy cancelled", …): a run terminated by a second signal. */
  cancelled: 8,
} as const;

/** A failure the user can fix (bad flag, missing file, locked stack…): one line, no stack trace, exit 1 or `exitCode`. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

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

/** Go's words for the errno of a failed file system call (syscall.Errno's Error). */
const GO_ERRNO: Record<string, string> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
};

/**
 * A failed file system call as Go's *fs.PathError prints it, `<op> <path>: <errno>`
 * (`open /x: no such file or directory`); `op` defaults to the call Node names.
 */
export function goPathError(error: unknown, path: string, op?: string): string {
  const e = error as NodeJS.ErrnoException;
  const words = GO_ERRNO[e.code ?? ''];
  return words ? `${op ?? e.syscall ?? 'open'} ${path}: ${words}` : oneLine(error);
}
