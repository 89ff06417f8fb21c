/**
 * `npm run bench` (packages/cli): what running through ocikit costs over calling OCI directly.
 *
 * The program runs transpile-only (PULUMI_NODEJS_TRANSPILE_ONLY=true) so the numbers are the
 * engine's; a type-checked preview is measured apart.
 *
 * Rows 1 and 4 are medians of BENCH_ROUNDS (default 3) rounds, the SDK's creates and ocikit's
 * alternating; the other rows are single runs, and the engine's part is the median round's.
 *
 * 1. `ocikit up --skip-preview` of a program with 50 DrPlans and 50 Endpoints against an emulator
 *    with zero transition delay, vs the same 100 creates (each waited to ACTIVE, as the plugin does)
 *    issued directly with the official OCI SDK at the same parallelism. Ratio; goal ≤ 1.3. The
 *    update alone is what does those creates; `up --yes` previews first, as Pulumi's does (a
 *    second run of the program), and is measured too, after a destroy.
 * 2. `ocikit preview` of the unchanged 100-resource stack (seconds).
 * 3. Peak memory: the largest sum of RSS over ocikit and its children (program, plugin), sampled.
 * 4. For reference, whole command against whole command: the same creates as a user's Node script
 *    with the SDK, timed from spawn to exit (Node start and SDK load included, as for `ocikit up`).
 * 5. The breakdown of `up`: (a) the program floor, the same program run as a process under
 *    Pulumi's own mocks (`pulumi.runtime.setMocks`, the same ts-node transpile-only start, no
 *    engine): what the unmodified program costs before any engine work; (b) the engine's part,
 *    from the program's first custom-resource registration to the last one answered (from
 *    ocikit's trace), vs the SDK time, and the CPU each part of the run (ocikit, the plugins, the
 *    program, the emulator) used in that window, as a share of the machine's cores (from /proc).
 *    The floor is measured twice: as Pulumi runs the program, and with the preload ocikit adds
 *    (preload/program-start.js: work of @pulumi/pulumi's start that the program never uses).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseYaml, stringify } from 'yaml';
import { fastWaiter } from '@ocikit/emulator/testing';
import { PROGRAM_START } from '../src/engine/program';
import { startCloud } from '../test/support/programs';
import { cleanEnv, OCIKIT_BIN } from '../test/support/ocikit';

const COUNT = Number(process.env.BENCH_COUNT ?? 50);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 8);
/** Rounds of the main comparison (and of the SDK script); their medians are reported. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const REPO = resolve(__dirname, '../../..');

const PROGRAM = `import * as pulumi from '@pulumi/pulumi';
import * as oci from '@ocikit/oci';
const c = new pulumi.Config();
const standby = new oci.Provider('standby', { region: c.require('standbyRegion') });
for (let i = 0; i < ${COUNT}; i++) {
  new oci.disasterrecovery.DrPlan('plan-' + i, { displayName: 'bench-plan-' + i, type: 'SWITCHOVER',
    drProtectionGroupId: c.require('standbyGroupId') }, { provider: standby });
  new oci.ailanguage.Endpoint('endpoint-' + i, { compartmentId: c.require('compartmentId'),
    modelId: c.require('modelId'), displayName: 'bench-endpoint-' + i });
}
`;

/** One process of a sampled tree: its RSS (kB), CPU time so far (ms) and role in the run. */
interface ProcessSample {
  pid: number;
  rssKb: number;
  cpuMs: number;
  role: string;
}

const roleOf = (cmdline: string) =>
  /pulumi-resource-oci/.test(cmdline)
    ? 'plugins'
    : /cmd\/run/.test(cmdline)
      ? 'program'
      : /ocikit/.test(cmdline)
        ? 'ocikit'
        : 'other';

/** A process and all its descendants, read from /proc. */
function readTree(pid: number, into: ProcessSample[] = []): ProcessSample[] {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // utime and stime, fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 a second on Linux).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    into.push({
      pid,
      rssKb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0),
      cpuMs: (Number(fields[11]) + Number(fields[12])) * 10,
      role: roleOf(readFileSync(`/proc/${pid}/cmdline`, 'utf8')),
    });
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(/\s+/) : []) readTree(Number(child), into);
    }
  } catch {
    // the process ended between two reads
  }
  return into;
}

/** A reading every 50 ms: ms since spawn, the tree, and this process's own CPU (it hosts the emulator). */
interface Sample {
  ms: number;
  tree: ProcessSample[];
  emulatorCpuMs: number;
}

/**
 * CPU per role between two moments of a run (ms since spawn), as a share of all the machine's
 * cores. The emulator's share is this bench process's, which also pays for the 50 ms sampling.
 */
function cpuShare(samples: Sample[], fromMs: number, toMs: number): Record<string, number> {
  const at = (ms: number) => samples.reduce((best, s) => (Math.abs(s.ms - ms) < Math.abs(best.ms - ms) ? s : best));
  const [a, b] = [at(fromMs), at(toMs)];
  const capacity = (b.ms - a.ms) * availableParallelism();
  const share: Record<string, number> = { emulator: (b.emulatorCpuMs - a.emulatorCpuMs) / capacity };
  for (const p of b.tree) {
    const before = a.tree.find((q) => q.pid === p.pid)?.cpuMs ?? 0;
    share[p.role] = (share[p.role] ?? 0) + (p.cpuMs - before) / capacity;
  }
  return share;
}

function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { cwd?: string; node?: boolean } = {},
): Promise<{ seconds: number; peakMb: number; out: string; samples: Sample[] }> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, options.node ? args : [OCIKIT_BIN, ...args], {
    env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const samples: Sample[] = [];
  const sampler = setInterval(() => {
    const cpu = process.cpuUsage();
    samples.push({
      ms: Number(process.hrtime.bigint() - started) / 1e6,
      tree: readTree(child.pid!),
      emulatorCpuMs: (cpu.user + cpu.system) / 1000,
    });
  }, 50);
  return new Promise((resolvePromise, reject) =>
    child.on('close', (code) => {
      clearInterval(sampler);
      if (code !== 0)
        return reject(new Error(`${options.node ? 'node' : 'ocikit'} ${args.join(' ')} exited ${code}:\n${out}`));
      const peakKb = Math.max(0, ...samples.map((s) => s.tree.reduce((sum, p) => sum + p.rssKb, 0)));
      resolvePromise({ seconds: Number(process.hrtime.bigint() - started) / 1e9, peakMb: peakKb / 1024, out, samples });
    }),
  );
}

/**
 * Runs a Pulumi program under Pulumi's mocks, started as @pulumi/pulumi/cmd/run starts a
 * TypeScript program (its own ts-node, transpile-only, with run.js's compiler options), and
 * exits once every registration is answered: the program's own cost, with no engine.
 */
const MOCK_RUNNER = `const path = require('path');
const { typeScriptRequireStrings } = require('@pulumi/pulumi/tsutils');
const { tsnodeRequire, typescriptRequire } = typeScriptRequireStrings();
require(tsnodeRequire).register({
  compiler: typescriptRequire,
  transpileOnly: true,
  skipProject: true,
  compilerOptions: { target: 'ES2020', module: 'nodenext', moduleResolution: 'nodenext', sourceMap: 'true' },
});
const pulumi = require('@pulumi/pulumi');
pulumi.runtime
  .setMocks(
    {
      newResource: (a) => ({ id: a.name + '-id', state: a.inputs }),
      call: (a) => a.inputs,
    },
    process.argv[2],
    process.argv[3],
    false,
  )
  .then(() => require(path.resolve('index.ts')))
  .then(() => pulumi.runtime.disconnect())
  .then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
`;

/**
 * The same 100 creates as a user's Node script with the official OCI SDK: a process that loads the
 * SDK, signs with the emulator's config file and creates PARALLEL at a time, each waited to
 * ACTIVE. Timed from spawn to exit, as `ocikit up` is, for the row that compares whole commands.
 */
const DIRECT_SCRIPT = `const common = require('oci-common');
const { DisasterRecoveryClient } = require('oci-disasterrecovery');
const { AIServiceLanguageClient } = require('oci-ailanguage');
const [url, configFile, peerRegion, groupId, compartmentId, modelId, count, parallel] = process.argv.slice(2);
const auth = new common.ConfigFileAuthenticationDetailsProvider(configFile, 'DEFAULT');
const dr = new DisasterRecoveryClient({ authenticationDetailsProvider: auth });
dr.endpoint = url + '/r/' + peerRegion;
const language = new AIServiceLanguageClient({ authenticationDetailsProvider: auth });
language.endpoint = url;
const waiter = { terminationStrategy: new common.MaxAttemptsTerminationStrategy(200),
  delayStrategy: new common.FixedTimeDelayStrategy(0.01) };
const jobs = Array.from({ length: 2 * Number(count) }, (_, i) => i);
let next = 0;
async function worker() {
  while (next < jobs.length) {
    const i = jobs[next++];
    if (i % 2 === 0) {
      const { drPlan } = await dr.createDrPlan({ createDrPlanDetails: { displayName: 'script-plan-' + i,
        type: 'SWITCHOVER', drProtectionGroupId: groupId } });
      await dr.createWaiters(waiter).forDrPlan({ drPlanId: drPlan.id }, 'ACTIVE');
    } else {
      const { endpoint } = await language.createEndpoint({ createEndpointDetails: { compartmentId, modelId,
        displayName: 'script-endpoint-' + i } });
      await language.createWaiters(waiter).forEndpoint({ endpointId: endpoint.id }, 'ACTIVE');
    }
  }
}
Promise.all(Array.from({ length: Number(parallel) }, worker)).then(() => { dr.close(); language.close(); },
  (e) => { console.error(e); process.exit(1); });
`;

/** A trace mark of an ocikit run (ms since it started); see src/engine/trace.ts. */
function mark(out: string, name: string): number {
  const m = new RegExp(`^\\s*(\\d+)  ${name}$`, 'm').exec(out);
  if (!m) throw new Error(`no '${name}' in the trace of ocikit:\n${out}`);
  return Number(m[1]);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function pool<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

async function main(): Promise<void> {
  if (!existsSync(OCIKIT_BIN.replace(/bin\/ocikit\.js$/, 'dist/main.js'))) throw new Error('run npm run build first');
  const cloud = await startCloud();
  const { t, sandbox } = cloud;
  const dir = mkdtempSync(join(tmpdir(), 'ocikit-bench-'));
  try {
    // Direct: the same creates with the official SDK, each waited to ACTIVE, PARALLEL at a time.
    const drClient = t.dr(sandbox.peerRegion);
    const language = t.language();
    const jobs = Array.from({ length: COUNT * 2 }, (_, i) => i);
    const direct = async (round: number): Promise<number> => {
      const direct0 = process.hrtime.bigint();
      await pool(jobs, PARALLEL, async (i) => {
        const n = Math.floor(i / 2);
        if (i % 2 === 0) {
          const { drPlan } = await drClient.createDrPlan({
            createDrPlanDetails: {
              displayName: `direct-plan-${round}-${n}`,
              type: 'SWITCHOVER' as never,
              drProtectionGroupId: sandbox.standbyGroupId,
            },
          });
          await drClient.createWaiters(fastWaiter()).forDrPlan({ drPlanId: drPlan.id }, 'ACTIVE' as never);
        } else {
          const { endpoint } = await language.createEndpoint({
            createEndpointDetails: {
              compartmentId: sandbox.compartmentId,
              modelId: sandbox.textModelId,
              displayName: `direct-endpoint-${round}-${n}`,
            },
          });
          await language.createWaiters(fastWaiter()).forEndpoint({ endpointId: endpoint.id }, 'ACTIVE' as never);
        }
      });
      return Number(process.hrtime.bigint() - direct0) / 1e9;
    };

    symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(
      join(dir, 'Pulumi.yaml'),
      'name: bench\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n',
    );
    writeFileSync(join(dir, 'index.ts'), PROGRAM);
    const stackConfig = stringify({
      config: {
        ...cloud.ociConfig,
        'bench:standbyRegion': sandbox.peerRegion,
        'bench:standbyGroupId': sandbox.standbyGroupId,
        'bench:compartmentId': sandbox.compartmentId,
        'bench:modelId': sandbox.textModelId,
      },
    });
    // Every `up` below runs on a stack of its own (the same config), so each one's creates are
    // first creates, as the SDK's are. The plugin's retry token is derived from the URN and inputs
    // (an interrupted create, run again, finds its resource instead of making a second one): the
    // same stack destroyed and created again within OCI's 24 hours replays the deleted resource
    // first and then creates anew, one more create and wait per resource.
    const stacks = ['dev', ...Array.from({ length: ROUNDS - 1 }, (_, i) => `round${i + 2}`), 'upyes'];
    for (const stack of stacks) writeFileSync(join(dir, `Pulumi.${stack}.yaml`), stackConfig);
    const ocikit = (stack: string, ...args: string[]) => [
      '--cwd',
      dir,
      '--stack',
      stack,
      '--parallel',
      String(PARALLEL),
      ...args,
    ];
    // Explicit providers read the environment (as with the Pulumi CLI), the default one the stack config.
    const env = cleanEnv(cloud.env);
    // The engine's cost, not ts-node's: type-checking the program is measured on its own below.
    // BENCH_TRACE=1: each ocikit run prints its phase timings (OCIKIT_TRACE), shown after the table.
    // The trace's marks give the engine's part of `up`; BENCH_TRACE=1 prints the whole trace too.
    const traced = process.env.BENCH_TRACE === '1' ? { OCIKIT_TRACE: '1' } : {};
    const fast = { ...env, ...traced, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' };
    // ROUNDS rounds of the comparison, each: the SDK's creates, then ocikit's. Medians, and the
    // median round's trace.
    const rounds: { directSeconds: number; up: Awaited<ReturnType<typeof run>> }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const directSeconds = await direct(round);
      const up = await run(ocikit(stacks[round], 'up', '--skip-preview'), { ...fast, OCIKIT_TRACE: '1' });
      rounds.push({ directSeconds, up });
    }
    const directSeconds = median(rounds.map((r) => r.directSeconds));
    const up = [...rounds].sort((a, b) => a.up.seconds - b.up.seconds)[Math.floor(ROUNDS / 2)].up;
    const [engineFrom, engineTo] = [
      mark(up.out, 'first custom RegisterResource'),
      mark(up.out, 'last RegisterResource answered'),
    ];
    const enginePart = (engineTo - engineFrom) / 1000;
    const engineCpu = cpuShare(up.samples, engineFrom, engineTo);
    const preview = await run(ocikit('dev', 'preview'), fast);
    const checked = await run(ocikit('dev', 'preview'), env);
    const upWithPreview = await run(ocikit('upyes', 'up', '--yes'), fast);
    writeFileSync(join(dir, 'direct-sdk.js'), DIRECT_SCRIPT);
    const scriptRuns: Awaited<ReturnType<typeof run>>[] = [];
    for (let round = 0; round < ROUNDS; round++)
      scriptRuns.push(
        await run(
          [
            'direct-sdk.js',
            t.url,
            t.emulator.configFile,
            sandbox.peerRegion,
            sandbox.standbyGroupId,
            sandbox.compartmentId,
            sandbox.textModelId,
            String(COUNT),
            String(PARALLEL),
          ],
          env,
          { cwd: dir, node: true },
        ),
      );
    const script = { seconds: median(scriptRuns.map((r) => r.seconds)) };
    writeFileSync(join(dir, 'mock-run.js'), MOCK_RUNNER);
    const config = Object.fromEntries(
      Object.entries(
        parseYaml(readFileSync(join(dir, 'Pulumi.dev.yaml'), 'utf8')).config as Record<string, unknown>,
      ).map(([k, v]) => [k, String(v)]),
    );
    const mockEnv = { ...fast, PULUMI_CONFIG: JSON.stringify(config) };
    const floor = await run(['mock-run.js', 'bench', 'dev'], mockEnv, { cwd: dir, node: true });
    // The same, with the preload ocikit starts every program with (what it spares the program).
    const floorPreloaded = await run(['--require', PROGRAM_START, 'mock-run.js', 'bench', 'dev'], mockEnv, {
      cwd: dir,
      node: true,
    });

    const rows = [
      [
        `ocikit up --skip-preview (${COUNT} DrPlans + ${COUNT} Endpoints, --parallel ${PARALLEL}; median of ${ROUNDS})`,
        `${up.seconds.toFixed(2)} s`,
      ],
      [
        `same creates with the OCI SDK (${PARALLEL} at a time, waited to ACTIVE; median of ${ROUNDS})`,
        `${directSeconds.toFixed(2)} s`,
      ],
      ['ratio ocikit / SDK (goal ≤ 1.3)', (up.seconds / directSeconds).toFixed(2)],
      [
        'each round: SDK s / ocikit up s',
        rounds.map((r) => `${r.directSeconds.toFixed(2)} / ${r.up.seconds.toFixed(2)}`).join(', '),
      ],
      [
        `the same creates as a Node script with the OCI SDK (process: start, SDK load, creates; median of ${ROUNDS})`,
        `${script.seconds.toFixed(2)} s`,
      ],
      ['ratio ocikit up / that script (both whole commands)', (up.seconds / script.seconds).toFixed(2)],
      [
        `ocikit up --yes: the same creates after a preview, as Pulumi's up --yes`,
        `${upWithPreview.seconds.toFixed(2)} s`,
      ],
      [`ocikit preview of the unchanged ${COUNT * 2}-resource stack`, `${preview.seconds.toFixed(2)} s`],
      [`the same preview with ts-node type-checking the program (Pulumi's default)`, `${checked.seconds.toFixed(2)} s`],
      [`program floor: the same program under Pulumi's mocks, no engine (process)`, `${floor.seconds.toFixed(2)} s`],
      [`the same, with ocikit's program-start preload`, `${floorPreloaded.seconds.toFixed(2)} s`],
      [`engine's part of up: first custom registration → last answered`, `${enginePart.toFixed(2)} s`],
      [`ratio engine's part / SDK (goal ≤ 1.3)`, (enginePart / directSeconds).toFixed(2)],
      [
        `CPU during the engine's part, share of the machine's ${availableParallelism()} cores`,
        ['ocikit', 'plugins', 'program', 'emulator']
          .map((role) => `${role} ${Math.round((engineCpu[role] ?? 0) * 100)}%`)
          .concat(`total ${Math.round(Object.values(engineCpu).reduce((a, b) => a + b, 0) * 100)}%`)
          .join(', '),
      ],
      ['peak memory, ocikit up (ocikit + program + plugin RSS)', `${up.peakMb.toFixed(0)} MB`],
      ['peak memory, ocikit preview', `${preview.peakMb.toFixed(0)} MB`],
      // The update's program process starts while the preview runs (PrestartedProgram): one more process then.
      ['peak memory, ocikit up --yes (preview, then update)', `${upWithPreview.peakMb.toFixed(0)} MB`],
      ['peak memory, type-checked preview', `${checked.peakMb.toFixed(0)} MB`],
    ];
    console.log('| measure | value |\n|---|---|');
    for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
    if (traced.OCIKIT_TRACE)
      for (const [name, r] of [
        ['up', up],
        ['preview', preview],
      ] as const)
        console.log(`\n${name}:\n${r.out.slice(r.out.indexOf('ocikit trace'))}`);
  } finally {
    await cloud.close();
    if (process.env.BENCH_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(`bench: ${error.message}`);
  process.exit(1);
});
