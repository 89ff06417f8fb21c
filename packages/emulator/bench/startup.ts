/**
 * Start-up time of the installed command (`bin/ocikit-emulator.js`, from dist/): from spawn to
 * its first line, median of `runs`, on the Node running the bench. Each run then stops it with
 * SIGTERM and waits for its exit.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { median } from './load';

const BIN = join(__dirname, '../bin/ocikit-emulator.js');

async function firstLineMs(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const elapsed = await new Promise<number>((resolve, reject) => {
    void exited.then((code) => reject(new Error(`ocikit-emulator exited early with ${code}`)));
    createInterface({ input: child.stdout }).once('line', () => resolve(performance.now() - started));
  });
  child.stdout.resume();
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`ocikit-emulator exited with ${code} on SIGTERM`);
  return elapsed;
}

export interface StartupResult {
  /** `node -e 0` on the same Node, for scale. */
  nodeMs: number;
  /** `--data <dir>` on a data directory that already exists (seeded). */
  existingDataMs: number;
  /** `--in-memory --seed sandbox`: new key, new sandbox. */
  inMemorySeedMs: number;
}

export async function measureStartup(runs = 5): Promise<StartupResult> {
  if (!existsSync(join(__dirname, '../dist/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const scratch = mkdtempSync(join(tmpdir(), 'ocikit-bench-start-'));
  const dataDir = join(scratch, 'data');
  try {
    await firstLineMs(['--data', dataDir, '--seed', 'sandbox']); // creates and seeds the data directory
    const times = async (measure: () => Promise<number>) => {
      const all: number[] = [];
      for (let i = 0; i < runs; i++) all.push(await measure());
      return median(all);
    };
    const nodeMs = await times(async () => {
      const started = performance.now();
      await new Promise((resolve) => spawn(process.execPath, ['-e', '0']).once('exit', resolve));
      return performance.now() - started;
    });
    return {
      nodeMs,
      existingDataMs: await times(() => firstLineMs(['--data', dataDir])),
      inMemorySeedMs: await times(() => firstLineMs(['--in-memory', '--seed', 'sandbox'])),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
