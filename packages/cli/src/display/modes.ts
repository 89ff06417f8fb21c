/** Pulumi's --color values: always, never, raw (no colour codes), auto (on a terminal, unless NO_COLOR). */
export const COLOR_MODES = ['always', 'never', 'raw', 'auto'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];

/**
 * Whether to colour text written to a terminal (`live`), as Pulumi's colorization
 * (cmdutil.GetGlobalColorization): always, or auto on a terminal unless NO_COLOR.
 */
export function colourOn(color: ColorMode | undefined, live: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  const mode = color ?? 'auto';
  return mode === 'always' || (mode === 'auto' && live && !env.NO_COLOR);
}
