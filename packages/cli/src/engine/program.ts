// Starts the Pulumi program as Pulumi's Node.js language host does (pulumi-language-nodejs):
// `node [nodeargs] <the program's own @pulumi/pulumi/cmd/run> --monitor … --engine … --project …
// --root-directory … --stack … --pwd … [--dry-run] --parallel N --organization … <entry point>` with PULUMI_CONFIG,
// PULUMI_CONFIG_SECRET_KEYS and the TypeScript switches in the environment.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { splitNodeArgs } from '../project/runtime-options';

export interface ProgramOptions {
  /** The project's folder (Pulumi.yaml's); the program runs in its `main`'s (programLocation). */
  programDir: string;
  project: { name: string; main?: string; runtimeOptions?: Record<string, unknown> };
  stack: string;
  monitorAddress: string;
  engineAddress: string;
  dryRun: boolean;
  parallel: number;
  config: Record<string, string>;
  secretKeys: string[];
  /** `--debug`: the program sends its debug messages (the preload drops them otherwise). */
  debug?: boolean;
  onStdout(line: string): void;
  onStderr(line: string): void;
}

export interface RunningProgram {
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Loaded first in the program's process: a workaround for a Node.js 20.20 bug that made every
 * unhandled exception thrown inside an `apply` hang the program for minutes (see the file).
 */
export const INSPECT_GUARD = join(__dirname, '..', '..', 'preload', 'inspect-guard.js');

/**
 * Loaded first too: spares @pulumi/pulumi's start work the program never uses (a formatted stack
 * trace on every promise, npm's package tooling), about half of a 100-resource program's start.
 */
export const PROGRAM_START = join(__dirname, '..', '..', 'preload', 'program-start.js');

/** The organization Pulumi reports for a local (DIY) backend. */
const organization = 'organization';

export function resolveRunModule(programDir: string): string {
  try {
    return require.resolve('@pulumi/pulumi/cmd/run', { paths: [programDir] });
  } catch {
    throw new Error(`@pulumi/pulumi is not installed for the program in ${programDir} (run npm install there)`);
  }
}

/**
 * Where the program runs and what it runs, as Pulumi's engine works them out from Pulumi.yaml's
 * `main` (pkg/engine/project.go, getPwdMain): no `main`, the project's folder and `.`; a folder, that
 * folder and `.`; a file, its folder and its name. The language host passes the folder as cmd/run's
 * `--pwd` (the program's working directory, where a relative path in the program and the default
 * `tsconfig.json` are read) and the project's folder as `--root-directory`
 * (`pulumi.runtime.getRootDirectory()`).
 */
export function programLocation(projectDir: string, main: string | undefined): { pwd: string; entry: string } {
  if (main === undefined || main === '') return { pwd: projectDir, entry: '.' };
  const target = resolve(projectDir, main);
  try {
    if (statSync(target).isDirectory()) return { pwd: target, entry: '.' };
    return { pwd: dirname(target), entry: basename(target) };
  } catch {
    // Not there (checkEntryPoint reports it before a run): cmd/run's own message, as before.
    return { pwd: projectDir, entry: main };
  }
}

/** Config as the language host passes it: keys `<ns>:<key>`, values strings. */
function configEnv(config: Record<string, string>, secretKeys: string[]): NodeJS.ProcessEnv {
  return {
    PULUMI_CONFIG: JSON.stringify(config),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(secretKeys),
  };
}

/** What the program's process is started with, before its run's arguments (see startProgram). */
export type ProgramProcessOptions = Pick<ProgramOptions, 'programDir' | 'project' | 'config' | 'secretKeys' | 'debug'>;

/**
 * The node arguments up to cmd/run, the environment and the folder: what a run's process starts
 * with. Started in the program's folder, as Pulumi starts its language host there (the node
 * arguments' relative paths, `--require ./setup.js`, are read from it).
 */
function programProcess(o: ProgramProcessOptions): { args: string[]; env: NodeJS.ProcessEnv; cwd: string } {
  const { pwd } = programLocation(o.programDir, o.project.main);
  // Found from the program's folder, as the language host's locateModule finds it (a `main` folder
  // with its own package.json and node_modules has its own @pulumi/pulumi).
  const runModule = resolveRunModule(pwd);
  const opts = o.project.runtimeOptions ?? {};
  // Pulumi.yaml runtime options: typescript (default true), tsconfig, nodeargs.
  const typescript = opts.typescript === undefined ? true : opts.typescript === true || opts.typescript === 'true';
  // Split as the language host splits them (shlex: quotes and backslashes; checkRuntimeOptions
  // has refused what does not split).
  const nodeargs = typeof opts.nodeargs === 'string' ? splitNodeArgs(opts.nodeargs) : [];
  const env: NodeJS.ProcessEnv = { ...process.env, ...configEnv(o.config, o.secretKeys) };
  // The user's NODE_OPTIONS reach the program, as Pulumi's language host passes the environment on
  // (Pulumi's advice for a program out of memory is NODE_OPTIONS=--max-old-space-size=…). A test
  // runner's context must not leak into it.
  delete env.NODE_TEST_CONTEXT;
  if (o.debug) env.OCIKIT_PROGRAM_DEBUG = 'true';
  else delete env.OCIKIT_PROGRAM_DEBUG;
  if (typescript) env.PULUMI_NODEJS_TYPESCRIPT = 'true';
  else delete env.PULUMI_NODEJS_TYPESCRIPT;
  // As the language host passes it: read by cmd/run after its chdir to the program's folder.
  if (typeof opts.tsconfig === 'string') env.PULUMI_NODEJS_TSCONFIG_PATH = resolve(pwd, opts.tsconfig);
  // The preloads in the `--require=<file>` form: cmd/run switches a `"type": "module"` TypeScript
  // program to ts-node's ESM hooks only when node's arguments hold no `--loader`, `--import` or
  // `--require` (run.ts, hasLoaders, which compares whole arguments), so a user's own loader in
  // `nodeargs` still turns it off, as with Pulumi, and ocikit's do not.
  return { args: [...nodeargs, `--require=${INSPECT_GUARD}`, `--require=${PROGRAM_START}`, runModule], env, cwd: pwd };
}

/** cmd/run's arguments, as the language host passes them. */
function runArguments(o: ProgramOptions): string[] {
  const { pwd, entry } = programLocation(o.programDir, o.project.main);
  return [
    '--monitor',
    o.monitorAddress,
    '--engine',
    o.engineAddress,
    '--organization',
    organization,
    '--project',
    o.project.name,
    '--root-directory',
    o.programDir,
    '--stack',
    o.stack,
    '--pwd',
    pwd,
    ...(o.dryRun ? ['--dry-run'] : []),
    '--parallel',
    String(o.parallel),
    entry,
  ];
}

function spawnProgram(o: ProgramProcessOptions, extraArgs: string[], gated: boolean): ChildProcess {
  const { args, env, cwd } = programProcess(o);
  if (gated) env[GATE_ENV] = '3';
  // Its own process group, as Pulumi starts its language host: a terminal's Ctrl-C reaches ocikit
  // only, which stops the program itself once the operations in flight are recorded.
  return spawn(process.execPath, [...args, ...extraArgs], {
    cwd,
    env,
    stdio: gated ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
}

function running(child: ChildProcess, o: ProgramOptions): RunningProgram {
  lines(child.stdout!, o.onStdout);
  lines(child.stderr!, o.onStderr);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      return resolve({ code: child.exitCode, signal: child.signalCode });
    child.once('error', () => resolve({ code: 1, signal: null }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, exit };
}

export function startProgram(o: ProgramOptions): RunningProgram {
  return running(spawnProgram(o, runArguments(o), false), o);
}

/** The preload reads a program's arguments from this descriptor when the variable names it. */
const GATE_ENV = 'OCIKIT_PROGRAM_GATE';

/**
 * A program's process started ahead of its run: Node starts and the modules cmd/run would load
 * first (@pulumi/pulumi's runtime, TypeScript, ts-node) load, then the preload waits for the run's
 * arguments (the monitor's address is not known yet) and config before cmd/run starts. ocikit
 * starts one as soon as it has read the project (the program loads while ocikit loads its engine
 * and starts the embedded emulator), and `up` one more for its update while its preview runs.
 * Nothing of the user's code runs until `start`, so a run that never comes (a failed or declined
 * preview, a locked stack) discards it without effect; the run itself is the same as a cold start's.
 */
export class PrestartedProgram {
  private readonly child: ChildProcess;
  private used = false;

  constructor(private readonly options: ProgramProcessOptions) {
    this.child = spawnProgram(options, [], true);
    this.child.once('error', () => undefined);
    // The process may die before it reads the gate (a `nodeargs` preload or loader that fails, a
    // Ctrl-C as the run starts): writing the run's arguments then fails with EPIPE or ECONNRESET,
    // which, unheard, ended ocikit with its own stack trace and left the stack's lock behind. The
    // run reports the process's exit and what it printed instead.
    for (const stream of [this.child.stdout, this.child.stderr, this.child.stdio[3]])
      (stream as Socket | null)?.on('error', () => undefined);
    // Not waited for: a discarded one must not keep ocikit alive.
    this.child.unref();
    for (const stream of [this.child.stdout, this.child.stderr, this.child.stdio[3]]) (stream as Socket).unref?.();
  }

  /** Runs the program with the run's arguments (a cold start if the early process is gone). */
  start(o: ProgramOptions): RunningProgram {
    if (this.used) throw new Error('a prestarted program runs once');
    this.used = true;
    const gate = this.child.stdio[3] as Writable;
    if (
      this.child.exitCode !== null ||
      this.child.signalCode !== null ||
      gate.destroyed ||
      !sameProcess(this.options, o)
    ) {
      this.child.kill('SIGKILL');
      return startProgram(o);
    }
    for (const stream of [this.child.stdout, this.child.stderr]) (stream as Socket).ref?.();
    this.child.ref();
    // The config may have grown since the process started (the embedded emulator's endpoint and
    // credentials are added once it is up): the gate sets it before cmd/run reads it.
    gate.end(`${JSON.stringify({ argv: runArguments(o), env: configEnv(o.config, o.secretKeys) })}\n`);
    return running(this.child, o);
  }

  /** Ends the early process (its program never ran). */
  discard(): void {
    if (this.used) return;
    this.used = true;
    this.child.kill('SIGKILL');
  }
}

/** Whether a prestarted process was started for this run's program (its config is sent at start). */
function sameProcess(a: ProgramProcessOptions, b: ProgramProcessOptions): boolean {
  const key = (o: ProgramProcessOptions) => JSON.stringify([o.programDir, o.project]);
  return key(a) === key(b);
}

function lines(stream: NodeJS.ReadableStream, each: (line: string) => void): void {
  let buf = '';
  stream.setEncoding('utf8');
  stream.on('data', (d: string) => {
    buf += d;
    const parts = buf.split('\n');
    buf = parts.pop() ?? '';
    for (const p of parts) each(p);
  });
  stream.on('end', () => {
    if (buf) each(buf);
  });
}
