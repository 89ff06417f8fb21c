import type { ColorMode } from '../display/modes';

/** The global flags every command receives (`--cwd`, `--stack`, `--parallel`, `--json`, `--non-interactive`). */
export interface GlobalOptions {
  cwd?: string;
  /** `--stack`; unset: the selected stack, else dev (commandContext). */
  stack?: string;
  parallel?: number;
  json?: boolean;
  nonInteractive?: boolean;
  color?: ColorMode;
}
