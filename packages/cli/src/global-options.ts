/** Flags every `ocikit` command takes; its own module so commands need not import main.ts (an import cycle). */
export interface GlobalOptions {
  cwd?: string;
  stack: string;
  parallel?: number;
  json?: boolean;
  nonInteractive?: boolean;
}
