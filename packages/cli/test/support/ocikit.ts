import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { scratchDir } from '../../../emulator/test/support/scratch';

/** The built `ocikit` binary (bin/ocikit.js → dist/main.js), spawned as a user runs it. */
export const OCIKIT_BIN = resolve(__dirname, '../../bin/ocikit.js');

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A HOME without ~/.oci/config and no OCI_* variables, so only what a test configures counts. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(OCI_|OCIKIT_|PULUMI_|NO_COLOR|FORCE_COLOR)/.test(k)) env[k] = v;
  env.HOME = scratchDir('home');
  for (const [k, v] of Object.entries(extra))
    if (v === undefined) delete env[k];
    else env[k] = v;
  return env;
}

export function spawnOcikit(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): { child: ChildProcess; done: Promise<RunResult> } {
  const child = spawn(process.execPath, [OCIKIT_BIN, ...args], {
    cwd: options.cwd,
    env: options.env ?? cleanEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdin!.end(options.input ?? '');
  const done = new Promise<RunResult>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export function ocikit(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<RunResult> {
  return spawnOcikit(args, options).done;
}
