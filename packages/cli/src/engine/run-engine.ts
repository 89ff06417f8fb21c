import type { EngineOptions, EngineResult } from './types';

export async function runEngine(options: EngineOptions): Promise<EngineResult> {
  void options;
  throw new Error('runEngine: not implemented yet');
}
