// npm run bench: the four provider benchmarks of issue 7, ratios measured in one run.
//   1. start until the port line vs `node -e 0` (median of 10)
//   2. create+delete of a DrPlan and an Endpoint through the plugin vs the same SDK calls and waiters
//   3. completion latency with a 3 s transition delay, beside Terraform's and the SDK waiter's schedules
//   4. plugin memory after 100 operations
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import * as common from 'oci-common';
import { encode, type Layout } from '../src/proto';
import { codec, LAYOUTS, METHODS } from '../src/rpc';
import { nextDelay } from '../src/wait';
import type { Props } from '../src/wire';
import {
  BIN,
  configuredPlugin,
  create,
  del,
  DRPLAN,
  ENDPOINT,
  startEnv,
  startEnvProcess,
  type Env,
  type Plugin,
} from '../test/support/harness';

const N = Number(process.env.BENCH_N ?? 10);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x: number): string => `${x.toFixed(0)} ms`;

async function portLine(): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, [BIN, '127.0.0.1:1'], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const t = performance.now() - start;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  return t;
}

async function startup(): Promise<void> {
  const bare: number[] = [];
  const grpcOnly: number[] = [];
  const plugin: number[] = [];
  // The floor: grpc-js alone (the copy @pulumi/pulumi uses), which the plugin needs to serve.
  const loadGrpc = `require(require.resolve('@grpc/grpc-js', { paths: [require('path').dirname(require.resolve('@pulumi/pulumi/package.json'))] }))`;
  await portLine(); // warm the file cache
  for (let i = 0; i < N; i++) {
    let s = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    bare.push(performance.now() - s);
    s = performance.now();
    spawnSync(process.execPath, ['-e', loadGrpc], { cwd: __dirname });
    grpcOnly.push(performance.now() - s);
    plugin.push(await portLine());
  }
  const r = median(plugin) / median(bare);
  console.log(
    `1. start until port line: plugin ${ms(median(plugin))}, node -e 0 ${ms(median(bare))} → ${r.toFixed(2)}× (goal ≤ 2×); ` +
      `loading grpc-js alone: ${ms(median(grpcOnly))} → ${(median(grpcOnly) / median(bare)).toFixed(2)}×`,
  );
}

/**
 * The engine's side of Check → Create → Delete, as the engine sends them (the Delete carries the
 * outputs), (de)serialised with the plugin's own codec rather than google-protobuf: the Go engine's
 * protobuf work takes microseconds, and google-protobuf's JS cost in this process is not the
 * plugin's to carry.
 */
function engine(plugin: Plugin): {
  createDelete(type: string, name: string, inputs: Props): Promise<void>;
  close(): void;
} {
  const client = new grpc.Client(`127.0.0.1:${plugin.port}`, grpc.credentials.createInsecure());
  // The plugin's DeleteRequest layout skips the outputs it does not read; the engine sends them.
  const layouts: Record<string, Layout> = { DeleteRequest: [...LAYOUTS.DeleteRequest, [3, 'properties', 'struct']] };
  const rpc = (key: string, req: Props): Promise<Props> => {
    const [method, rq, rs] = METHODS[key];
    const serialize = (m: Props): Buffer => encode(m, layouts[rq] ?? LAYOUTS[rq]);
    return new Promise((resolve, reject) =>
      client.makeUnaryRequest(`/pulumirpc.ResourceProvider/${method}`, serialize, codec(rs).deserialize, req, (e, r) =>
        e ? reject(e) : resolve(r!),
      ),
    );
  };
  return {
    async createDelete(type, name, inputs) {
      const urn = `urn:pulumi:bench::bench::${type}::${name}`;
      const checked = await rpc('check', { urn, olds: {}, news: inputs });
      if ((checked.failures as unknown[]).length) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
      const c = await rpc('create', { urn, properties: checked.inputs });
      await rpc('delete', { urn, id: c.id, properties: c.properties });
    },
    close: () => client.close(),
  };
}

async function crud(env: Env): Promise<void> {
  const dr = env.sandbox.disasterRecovery;
  const drPlugin = await configuredPlugin(env, dr.standbyRegion);
  const aiPlugin = await configuredPlugin(env, env.sandbox.homeRegion);
  const drSdk = env.dr(dr.standbyRegion);
  const aiSdk = env.language(env.sandbox.homeRegion);
  const waiter = {
    terminationStrategy: new common.MaxTimeTerminationStrategy(1200),
    delayStrategy: new common.ExponentialBackoffDelayStrategy(30),
  };
  const planInputs = (n: string) => ({
    displayName: n,
    drProtectionGroupId: dr.standbyProtectionGroupId,
    type: 'SWITCHOVER',
  });
  const epInputs = {
    compartmentId: env.sandbox.compartmentId,
    modelId: env.sandbox.aiLanguage.customModelIds.textClassification,
  };
  // BENCH_ENGINE=stubs drives the plugin through the test harness (google-protobuf in this process).
  const stubs = process.env.BENCH_ENGINE === 'stubs';
  const drEngine = engine(drPlugin);
  const aiEngine = engine(aiPlugin);
  const createDelete = async (p: Plugin, eng: typeof drEngine, type: string, name: string, inputs: Props) => {
    if (!stubs) return eng.createDelete(type, name, inputs);
    const c = await create(p, type, name, inputs);
    await del(p, type, name, c.id, c.outputs);
  };
  const viaPlugin = { plan: [] as number[], ep: [] as number[] };
  const viaSdk = { plan: [] as number[], ep: [] as number[] };
  for (let i = 0; i < N; i++) {
    let s = performance.now();
    await createDelete(drPlugin, drEngine, DRPLAN, `b${i}`, planInputs(`b${i}`));
    viaPlugin.plan.push(performance.now() - s);

    s = performance.now();
    const r = await drSdk.createDrPlan({ createDrPlanDetails: planInputs(`s${i}`) as never });
    const w = drSdk.createWaiters(waiter);
    await w.forWorkRequest({ workRequestId: r.opcWorkRequestId });
    await w.forDrPlan({ drPlanId: r.drPlan.id }, 'ACTIVE' as never, 'NEEDS_ATTENTION' as never);
    await drSdk.deleteDrPlan({ drPlanId: r.drPlan.id });
    await w.forDrPlan({ drPlanId: r.drPlan.id }, 'DELETED' as never);
    viaSdk.plan.push(performance.now() - s);

    s = performance.now();
    await createDelete(aiPlugin, aiEngine, ENDPOINT, `e${i}`, epInputs);
    viaPlugin.ep.push(performance.now() - s);

    s = performance.now();
    const er = await aiSdk.createEndpoint({ createEndpointDetails: epInputs });
    const aw = aiSdk.createWaiters(waiter);
    await aw.forWorkRequest({ workRequestId: er.opcWorkRequestId });
    await aw.forEndpoint({ endpointId: er.endpoint.id }, 'ACTIVE' as never);
    await aiSdk.deleteEndpoint({ endpointId: er.endpoint.id });
    await aw.forEndpoint({ endpointId: er.endpoint.id }, 'DELETED' as never);
    viaSdk.ep.push(performance.now() - s);
  }
  const pr = median(viaPlugin.plan) / median(viaSdk.plan);
  const er = median(viaPlugin.ep) / median(viaSdk.ep);
  console.log(
    `2. create+delete (median of ${N}, zero transition delay, engine side ${stubs ? 'google-protobuf stubs' : 'plugin codec'}; goal ≤ 1.2×):`,
  );
  console.log(`   DrPlan   plugin ${ms(median(viaPlugin.plan))}, SDK ${ms(median(viaSdk.plan))} → ${pr.toFixed(2)}×`);
  console.log(`   Endpoint plugin ${ms(median(viaPlugin.ep))}, SDK ${ms(median(viaSdk.ep))} → ${er.toFixed(2)}×`);
  if (process.env.BENCH_VERBOSE)
    console.log(JSON.stringify({ viaPlugin, viaSdk }, (_k, v) => (typeof v === 'number' ? Math.round(v) : v)));
  drEngine.close();
  aiEngine.close();
  await drPlugin.close();
  await aiPlugin.close();
}

/** When a poller following `delays` (ms between polls, first poll at 0) first sees a transition at `t` ms. */
function noticed(t: number, delayAt: (elapsed: number, attempt: number) => number): number {
  let now = 0;
  for (let attempt = 1; now < t; attempt++) now += delayAt(now, attempt);
  return now;
}

async function latency(): Promise<void> {
  const DELAY = 3;
  const env = await startEnv({ transitionDelaySeconds: DELAY });
  const dr = env.sandbox.disasterRecovery;
  const p = await configuredPlugin(env, dr.standbyRegion);
  const lat: number[] = [];
  for (let i = 0; i < Math.min(N, 5); i++) {
    const s = performance.now();
    await create(p, DRPLAN, `l${i}`, {
      displayName: `l${i}`,
      drProtectionGroupId: dr.standbyProtectionGroupId,
      type: 'SWITCHOVER',
    });
    lat.push(performance.now() - s - DELAY * 1000);
  }
  await p.close();
  await env.close();
  const goal = DELAY * 1000 * 0.1 + 250;
  console.log(
    `3. completion latency (DrPlan create, ${DELAY} s transition): answer ${ms(median(lat))} after the transition (goal ≤ ${ms(goal)})`,
  );
  const sdk = new common.ExponentialBackoffDelayStrategy(30);
  const schedules: Array<[string, (e: number, a: number) => number]> = [
    ['ocikit (50 ms + 6% of elapsed, ≤ 10 s)', (e) => nextDelay(e)],
    ['Terraform StateChangeConf (100 ms doubling, ≤ 10 s)', (_e, a) => Math.min(10_000, 100 * 2 ** (a - 1))],
    ['OCI SDK default waiter (2^n s, ≤ 30 s)', (_e, a) => sdk.delay({ attemptCount: a - 1 } as never) * 1000],
  ];
  console.log('   when a transition ending at T is noticed (polling schedule only, no request time):');
  console.log(`   ${'schedule'.padEnd(52)} ${[3, 10, 60, 600].map((t) => `T=${t}s`.padStart(10)).join('')}`);
  for (const [name, f] of schedules) {
    const cells = [3, 10, 60, 600].map((t) =>
      `+${((noticed(t * 1000, f) - t * 1000) / 1000).toFixed(2)}s`.padStart(10),
    );
    console.log(`   ${name.padEnd(52)} ${cells.join('')}`);
  }
}

async function memory(env: Env): Promise<void> {
  const dr = env.sandbox.disasterRecovery;
  const p = await configuredPlugin(env, dr.standbyRegion);
  for (let i = 0; i < 50; i++) {
    const c = await create(p, DRPLAN, `m${i}`, {
      displayName: `m${i}`,
      drProtectionGroupId: dr.standbyProtectionGroupId,
      type: 'SWITCHOVER',
    });
    await del(p, DRPLAN, `m${i}`, c.id, c.outputs);
  }
  const status = fs.readFileSync(`/proc/${p.child.pid}/status`, 'utf8');
  const kb = (k: string): number => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  console.log(
    `4. plugin memory after 100 operations (50 DrPlan create+delete): RSS ${(kb('VmRSS') / 1024).toFixed(0)} MiB, peak ${(kb('VmHWM') / 1024).toFixed(0)} MiB`,
  );
  await p.close();
}

async function main(): Promise<void> {
  console.log(`ocikit provider benchmarks (Node ${process.version}, N=${N})`);
  // BENCH_ONLY=start,crud,memory,latency runs a subset.
  const only = process.env.BENCH_ONLY?.split(',');
  const run = (part: string): boolean => !only || only.includes(part);
  if (run('start')) await startup();
  if (run('crud') || run('memory')) {
    // The emulator runs as its own process, so the plugin and the direct SDK calls both reach it
    // across a process boundary (an in-process emulator would favour the SDK side).
    const env = await startEnvProcess();
    try {
      if (run('crud')) await crud(env);
      if (run('memory')) await memory(env);
    } finally {
      await env.close();
    }
  }
  if (run('latency')) await latency();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
