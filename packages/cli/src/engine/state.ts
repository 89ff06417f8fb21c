import type { Crypter, StackState } from './types';

export function openStackState(options: { programDir: string; stack: string; crypter?: Crypter }): StackState {
  void options;
  throw new Error('openStackState: not implemented yet');
}

export function listStacks(programDir: string): Array<{ name: string; lastUpdate?: string; resourceCount: number }> {
  void programDir;
  return [];
}
