// Pulumi's typed environment variables (sdk/go/common/util/env): a bool is true for `1` or
// `true`, any case (BoolValue.Value), and one declared with env.Alternative is read under its
// older name when its own is unset (value.Underlying).

/** A boolean environment variable as Pulumi reads one; `alternative`: its older name. */
export function envFlag(name: string, alternative?: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env[name] ?? (alternative ? env[alternative] : undefined);
  return /^(1|true)$/i.test(value ?? '');
}
