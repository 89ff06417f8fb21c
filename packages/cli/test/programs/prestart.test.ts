// What ocikit starts ahead of a run: the program's process, held before any user code until its
// run starts (PrestartedProgram in src/engine/program.ts: the first run's as ocikit begins, `up`'s
// update's during its preview), and the preview's plugin processes, handed to the operation that
// follows (PluginHandover in src/engine/provider-host.ts), which is one for all the providers of a
// program (PluginPool: the others are instances in it). A run must see exactly what a cold start
// sees, and a preview that is declined or cut short must leave no process behind and run none of
// the user's code a second time.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { hasTerminal, type RunResult } from '../support/ocikit';
import { inlineProgram, ok, program, startCloud, type Cloud, type Program } from '../support/programs';

let cloud: Cloud;
before(async () => {
  cloud = await startCloud();
});
after(() => cloud?.close());

// Each run of the program appends what it was started with to runs.log, before anything else.
const INDEX = `import * as pulumi from '@pulumi/pulumi';
import { appendFileSync, readFileSync } from 'node:fs';
const config = new pulumi.Config();
appendFileSync('runs.log', JSON.stringify({
  dryRun: pulumi.runtime.isDryRun(),
  project: pulumi.getProject(),
  stack: pulumi.getStack(),
  greeting: config.require('greeting'),
  secret: config.getSecret('token') !== undefined,
  args: process.argv.slice(2),
  gate: process.env.OCIKIT_PROGRAM_GATE ?? null,
  // The environment the process was started with: a prestarted one had the gate in it.
  prestarted: readFileSync('/proc/self/environ', 'utf8').split('\\0').includes('OCIKIT_PROGRAM_GATE=3'),
  pid: process.pid,
}) + '\\n');
export const greeting = config.require('greeting');
`;

interface Run {
  dryRun: boolean;
  project: string;
  stack: string;
  greeting: string;
  secret: boolean;
  args: string[];
  gate: string | null;
  prestarted: boolean;
  pid: number;
}

function prestartProgram(): Program {
  const p = program(inlineProgram('prestart', INDEX), {
    ...cloud.env,
    PULUMI_NODEJS_TRANSPILE_ONLY: 'true',
    PULUMI_CONFIG_PASSPHRASE: 'pw',
  });
  p.setConfig({ ...cloud.ociConfig, 'prestart:greeting': 'hello' });
  return p;
}

const runs = (p: Program): Run[] =>
  existsSync(join(p.dir, 'runs.log'))
    ? readFileSync(join(p.dir, 'runs.log'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Run)
    : [];

/** Processes started as a prestarted program of this folder (their start-up environment names the gate). */
function prestartedProcesses(dir: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e)))
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) !== dir) continue;
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes('OCIKIT_PROGRAM_GATE=3')) found.push(+pid);
    } catch {
      // gone meanwhile, or not ours to read
    }
  return found;
}

async function noPrestartedProcessLeft(dir: string): Promise<void> {
  for (let i = 0; i < 50 && prestartedProcesses(dir).length; i++) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(prestartedProcesses(dir), [], 'no prestarted program process is left');
}

test("up's update runs in the process started during its preview, with a cold start's arguments, config and secrets", async () => {
  const p = prestartProgram();
  ok(await p.run(['config', 'set', 'token', 's3cret', '--secret']));
  ok(await p.run(['up', '--yes']), 'up');
  const [preview, update, ...more] = runs(p);
  assert.equal(more.length, 0, 'the program ran twice: preview, then update');
  assert.equal(preview.dryRun, true);
  assert.equal(update.dryRun, false);
  // Both ran in processes started ahead: the preview's as ocikit began, the update's during the preview.
  assert.equal(preview.prestarted, true);
  assert.equal(update.prestarted, true);
  for (const run of [preview, update]) {
    assert.equal(run.project, 'prestart');
    assert.equal(run.stack, 'dev');
    assert.equal(run.greeting, 'hello');
    assert.equal(run.secret, true);
    // cmd/run leaves the program its own arguments only (none here), and the gate is not seen.
    assert.deepEqual(run.args, []);
    assert.equal(run.gate, null);
  }
  assert.notEqual(preview.pid, update.pid);
  assert.deepEqual(JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout), { greeting: 'hello' });
  await noPrestartedProcessLeft(p.dir);

  // A second up (no changes) and a preview alone: the same, and a preview runs its program once.
  ok(await p.run(['up', '--yes']), 'second up');
  ok(await p.run(['preview']), 'preview');
  assert.deepEqual(
    runs(p).map((r) => r.dryRun),
    [true, false, true, false, true],
  );
});

test(
  'a declined up runs the program once (the preview): the process started for the update ends unused',
  { skip: !hasTerminal && 'util-linux script is not installed' },
  async () => {
    const p = prestartProgram();
    ok(await p.run(['up', '--yes']), 'first up');
    ok(await p.run(['config', 'set', 'greeting', 'changed']));
    const declined = await p.onTerminal(['up'], 'no');
    assert.equal(declined.code, 1, declined.stdout);
    assert.match(declined.stdout, /confirmation declined/);
    assert.deepEqual(
      runs(p).map((r) => [r.dryRun, r.greeting]),
      [
        [true, 'hello'],
        [false, 'hello'],
        [true, 'changed'],
      ],
    );
    await noPrestartedProcessLeft(p.dir);
  },
);

test('ocikit killed during the preview: the process started for the update ends by itself, having run nothing', async () => {
  const p = prestartProgram();
  const { child, done } = p.spawn(['up', '--yes']);
  let seen = '';
  let early: number[] = [];
  child.stdout!.on('data', (d: Buffer) => {
    seen += d.toString();
  });
  // Once the preview has begun, the preview's program and the update's waiting one are both
  // there: kill ocikit then.
  for (let i = 0; i < 200 && early.length < 2 && child.exitCode === null; i++) {
    await new Promise((r) => setTimeout(r, 25));
    if (/Previewing update/.test(seen)) early = prestartedProcesses(p.dir);
  }
  assert.equal(early.length, 2, `the update's process was started during the preview:\n${seen}`);
  child.kill('SIGKILL');
  const result = await done;
  assert.equal(result.signal, 'SIGKILL', seen);
  await noPrestartedProcessLeft(p.dir);
  assert.ok(
    runs(p).every((r) => r.dryRun),
    'only the preview ran the program',
  );
});

/** What the two provider programs below start with: @pulumi/pulumi, @ocikit/oci and `c`, their Config. */
const OCI_PRELUDE =
  "import * as pulumi from '@pulumi/pulumi';\nimport * as oci from '@ocikit/oci';\nconst c = new pulumi.Config();\n";

/** Runs ocikit and collects the pids of the plugin processes it starts (its children running pulumi-resource-oci). */
async function pluginsStarted(p: Program, args: string[]): Promise<{ result: RunResult; plugins: Set<number> }> {
  const { child, done } = p.spawn(args);
  const plugins = new Set<number>();
  let running = true;
  const watching = (async () => {
    while (running) {
      for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e)))
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
          if (ppid === child.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('pulumi-resource-oci'))
            plugins.add(+pid);
        } catch {
          // gone meanwhile
        }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const result = await done;
  running = false;
  await watching;
  return { result, plugins };
}

test("up's update is served by the preview's plugin processes, and their progress reaches the update's display", async () => {
  const slow = await startCloud({ transitionDelaySeconds: 1 });
  try {
    const source = inlineProgram(
      'handover',
      OCI_PRELUDE +
        "export const id = new oci.ailanguage.Endpoint('tickets', { compartmentId: c.require('compartmentId'),\n" +
        "  modelId: c.require('modelId'), displayName: c.require('displayName') }).id;\n",
    );
    const p = program(source, { ...slow.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
    p.setConfig({
      ...slow.ociConfig,
      'handover:compartmentId': slow.sandbox.compartmentId,
      'handover:modelId': slow.sandbox.textModelId,
      'handover:displayName': 'first',
    });
    const preview = await pluginsStarted(p, ['preview']);
    ok(preview.result, 'preview');
    assert.ok(preview.plugins.size >= 1, 'a preview starts its plugins');
    const up = await pluginsStarted(p, ['up', '--yes']);
    ok(up.result, 'up');
    // Pulumi would start them all again for the update: here it starts none of its own.
    assert.equal(up.plugins.size, preview.plugins.size, 'the update started no plugin process');
    // The plugin logs to the engine that handshook it last: the update's, whose display shows it.
    const update = up.result.stdout.slice(up.result.stdout.indexOf('Updating'));
    assert.match(update, /^ {4}oci:AiLanguage\/endpoint:Endpoint tickets: (work request \w+( \d+%)?|state CREATING)$/m);
    assert.match(update, /\+ 2 created/);
  } finally {
    await slow.close();
  }
});

test('a program with two providers runs on one plugin process, each provider configured for its own region', async () => {
  const source = inlineProgram(
    'instances',
    OCI_PRELUDE +
      "const standby = new oci.Provider('standby', { region: c.require('standbyRegion') });\n" +
      "export const planId = new oci.disasterrecovery.DrPlan('plan', { displayName: 'instances-plan',\n" +
      "  type: 'SWITCHOVER', drProtectionGroupId: c.require('standbyGroupId') }, { provider: standby }).id;\n" +
      "export const endpointId = new oci.ailanguage.Endpoint('endpoint', { compartmentId: c.require('compartmentId'),\n" +
      "  modelId: c.require('modelId'), displayName: 'instances-endpoint' }).id;\n",
  );
  const p = program(source, { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  p.setConfig({
    ...cloud.ociConfig,
    'instances:standbyRegion': cloud.sandbox.peerRegion,
    'instances:standbyGroupId': cloud.sandbox.standbyGroupId,
    'instances:compartmentId': cloud.sandbox.compartmentId,
    'instances:modelId': cloud.sandbox.textModelId,
  });
  // Pulumi would start a process per provider (two) for the preview and two more for the update.
  const up = await pluginsStarted(p, ['up', '--yes']);
  ok(up.result, 'up');
  assert.equal(up.plugins.size, 1, 'one plugin process served both providers, in the preview and the update');
  // Each provider kept its own region: the plan is in the standby region, the endpoint at home.
  const { planId, endpointId } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as {
    planId: string;
    endpointId: string;
  };
  const plan = await cloud.t.dr(cloud.sandbox.peerRegion).getDrPlan({ drPlanId: planId });
  assert.equal(plan.drPlan.displayName, 'instances-plan');
  const endpoint = await cloud.t.language().getEndpoint({ endpointId });
  assert.equal(endpoint.endpoint.displayName, 'instances-endpoint');
  // The next run (the stack now records both providers) starts one process again.
  const refresh = await pluginsStarted(p, ['refresh', '--yes']);
  ok(refresh.result, 'refresh');
  assert.equal(refresh.plugins.size, 1);
});
