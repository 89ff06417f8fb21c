/** A user's mistake in the project files: reported as one line, never a stack trace. */
export class ProjectError extends Error {}

/**
 * A YAML parser's message as one line: the `yaml` package's first line ends with a colon that
 * introduces a code frame on the lines after it, which a one-line error leaves out.
 */
export function yamlErrorLine(message: string): string {
  return message.split('\n')[0].replace(/:\s*$/, '');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
