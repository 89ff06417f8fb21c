/**
 * `ocikit emulator …`: the emulator's own command line (flags, defaults, first line, Ctrl-C),
 * run in this process so `ocikit emulator` and `ocikit-emulator` cannot drift apart.
 */
export function runEmulator(args: string[]): void {
  process.argv = [process.argv[0], 'ocikit-emulator', ...args];
  require('@ocikit/emulator/dist/main.js');
}
