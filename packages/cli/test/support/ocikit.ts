import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
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

/** Whether util-linux `script` is here to give ocikit a terminal (Debian's bsdutils has it). */
export const hasTerminal = spawnSync('script', ['--version']).status === 0;

/**
 * Runs ocikit on a pseudo-terminal (through `script`), as a user at a terminal does, and types
 * `answer` and Enter once its confirmation question appears. stdout and stderr both reach the
 * terminal, so the result's stdout holds both (with the terminal's CRLF line ends).
 */
export function ocikitOnTerminal(args: string[], answer: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, OCIKIT_BIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let answered = false;
  child.stdout.on('data', (d) => {
    stdout += d;
    if (!answered && /\(yes\/no\) /.test(stdout)) {
      answered = true;
      child.stdin.write(`${answer}\r`);
    }
  });
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
  });
}

// eslint-disable-next-line no-control-regex
const REDRAW = /\r|\x1b\[2K|\x1b\[1G/; // carriage return, erase line, cursor to column 1
// eslint-disable-next-line no-control-regex
const COLOUR = /\x1b\[[0-9;]*[A-Za-z]/g;

/**
 * What a user reads on the terminal: each line as left after carriage returns and line erases
 * (the live progress line is redrawn in place), without colour codes.
 */
export function terminalText(raw: string): string {
  return raw
    .split('\n')
    .map((line) => line.replace(/\r+$/, '').split(REDRAW).pop()!)
    .join('\n')
    .replace(COLOUR, '');
}
