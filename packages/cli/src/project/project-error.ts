/** A user's mistake in the project files: reported as one line, never a stack trace. */
export class ProjectError extends Error {}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
