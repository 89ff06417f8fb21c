/** Pulumi's --color values: always, never, raw (no colour codes), auto (on a terminal, unless NO_COLOR). */
export const COLOR_MODES = ['always', 'never', 'raw', 'auto'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];
