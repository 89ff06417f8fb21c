// Starts the Pulumi program as Pulumi's Node.js language host does (pulumi-language-nodejs):
// `node [nodeargs] <the program's own @pulumi/pulumi/cmd/run> --monitor … --engine … --project …
// --stack … --pwd … [--dry-run] --parallel N --organization … <main>` with PULUMI_CONFIG,
// PULUMI_CONFIG_SECRET_KEYS and the TypeScript switches in the environment.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface ProgramOptions {
  programDir: string;
  project: { name: string; main?: string; runtimeOptions?: Record<string, unknown> };
  stack: string;
  monitorAddress: string;
  engineAddress: string;
  dryRun: boolean;
  parallel: number;
  config: Record<string, string>;
  secretKeys: string[];
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

/** Config as the language host passes it: keys `<ns>:<key>`, values strings. */
function configEnv(config: Record<string, string>, secretKeys: string[]): NodeJS.ProcessEnv {
  return {
    PULUMI_CONFIG: JSON.stringify(config),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(secretKeys),
  };
}

export function startProgram(o: ProgramOptions): RunningProgram {
  const runModule = resolveRunModule(o.programDir);
  const opts = o.project.runtimeOptions ?? {};
  // Pulumi.yaml runtime options: typescript (default true), tsconfig, nodeargs.
  const typescript = opts.typescript === undefined ? true : opts.typescript === true || opts.typescript === 'true';
  const nodeargs = typeof opts.nodeargs === 'string' ? opts.nodeargs.split(/\s+/).filter(Boolean) : [];
  const env: NodeJS.ProcessEnv = { ...process.env, ...configEnv(o.config, o.secretKeys) };
  // The user's NODE_OPTIONS reach the program, as Pulumi's language host passes the environment on
  // (Pulumi's advice for a program out of memory is NODE_OPTIONS=--max-old-space-size=…). A test
  // runner's context must not leak into it.
  delete env.NODE_TEST_CONTEXT;
  if (typescript) env.PULUMI_NODEJS_TYPESCRIPT = 'true';
  else delete env.PULUMI_NODEJS_TYPESCRIPT;
  if (typeof opts.tsconfig === 'string') env.PULUMI_NODEJS_TSCONFIG_PATH = join(o.programDir, opts.tsconfig);
  const args = [
    ...nodeargs,
    '--require',
    INSPECT_GUARD,
    '--require',
    PROGRAM_START,
    runModule,
    '--monitor',
    o.monitorAddress,
    '--engine',
    o.engineAddress,
    '--organization',
    organization,
    '--project',
    o.project.name,
    '--stack',
    o.stack,
    '--pwd',
    o.programDir,
    ...(o.dryRun ? ['--dry-run'] : []),
    '--parallel',
    String(o.parallel),
    o.project.main ?? '.',
  ];
  // Its own process group, as Pulumi starts its language host: a terminal's Ctrl-C reaches ocikit
  // only, which stops the program itself once the operations in flight are recorded.
  const child = spawn(process.execPath, args, {
    cwd: o.programDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  lines(child.stdout!, o.onStdout);
  lines(child.stderr!, o.onStderr);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', () => resolve({ code: 1, signal: null }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, exit };
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
