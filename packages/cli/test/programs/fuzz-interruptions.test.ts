import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FaultSpec } from '@ocikit/emulator';
import { prng } from '../../../emulator/test/support/prng';
import { scratchDir } from '../../../emulator/test/support/scratch';
import {
  assertIntegrity,
  inlineProgram,
  ok,
  program,
  readCheckpoint,
  startCloud,
  type CheckpointDeployment,
  type Cloud,
  type Program,
} from '../support/programs';
import type { RunResult } from '../support/ocikit';

// A seeded, randomized run of changes and interruptions: each iteration picks a change (create
// all, update in place, a replacement create-before-delete or delete-before-replace, removing
// some resources, destroy) and an interruption (SIGINT, SIGINT twice, SIGKILL; an OCI 500, 429 or
// 400, a latency or a lost answer on one operation; a work request that fails), at a random moment
// or after the Nth step. After it, the state is whole and names what the cloud holds (pending
// operations included). Then the recovery the README documents (the next `up` or `destroy`;
// before it, `refresh --clear-pending-creates` or `--import-pending-creates` when a create is left
// pending, as Pulumi's refresh.go offers) converges: every resource of the state is in the cloud,
// ACTIVE, with its id; nothing live is untracked but what --clear-pending-creates leaves, as
// Pulumi documents; no duplicate; nothing left to do; the lock released; and `stack export |
// stack import` round-trips. Every check reads the cloud through the official OCI SDK clients.
// Each iteration's plan is logged, so a failure names its seed and what led to it.
//
// OCIKIT_FUZZ_SEEDS=1,2,3 and OCIKIT_FUZZ_ITERATIONS=n run other seeds and longer.

const SEEDS = (process.env.OCIKIT_FUZZ_SEEDS ?? '19,25').split(',').map(Number);
const ITERATIONS = Number(process.env.OCIKIT_FUZZ_ITERATIONS ?? 4);

/** The program, on @ocikit/oci or (unchanged but for the import) @pulumi/oci. */
const index = (sdk: string) => `import * as pulumi from '@pulumi/pulumi';
import * as oci from '${sdk}';

const config = new pulumi.Config();
const generation = config.get('generation') ?? 'g0';
const units = config.getNumber('units') ?? 1;
const label = config.get('label') ?? 'l0';
const dbr = config.getBoolean('dbr') ?? false;
const drop = (config.get('drop') ?? '').split(',');
const standby = new oci.Provider('standby', { region: config.require('standbyRegion') });
const opts = (dependsOn: Array<pulumi.Resource | undefined>, o: pulumi.CustomResourceOptions = {}) => ({
  replaceOnChanges: ['freeformTags'],
  deleteBeforeReplace: dbr,
  dependsOn: dependsOn.filter((d): d is pulumi.Resource => d !== undefined),
  ...o,
});
const endpoint = (name: string, dependsOn: Array<pulumi.Resource | undefined> = []) =>
  drop.includes(name)
    ? undefined
    : new oci.ailanguage.Endpoint(name, {
        compartmentId: config.require('compartmentId'),
        modelId: config.require('textModelId'),
        displayName: 'fz-' + name,
        inferenceUnits: units,
        freeformTags: { fz: name, generation },
      }, opts(dependsOn));
const plan = (name: string, dependsOn: Array<pulumi.Resource | undefined> = []) =>
  drop.includes(name)
    ? undefined
    : new oci.disasterrecovery.DrPlan(name, {
        displayName: 'fz-' + name + '-' + label,
        type: 'SWITCHOVER',
        drProtectionGroupId: config.require('standbyGroupId'),
        freeformTags: { fz: name, generation },
      }, opts(dependsOn, { provider: standby }));
const e1 = endpoint('e1');
endpoint('e2', [e1]);
endpoint('e3');
const p1 = plan('p1');
plan('p2', [p1]);
plan('p3', [e1]);
`;

const NAMES = ['e1', 'e2', 'e3', 'p1', 'p2', 'p3'];
const ENDPOINT = 'oci:AiLanguage/endpoint:Endpoint';
const PLAN = 'oci:DisasterRecovery/drPlan:DrPlan';

type Rng = ReturnType<typeof prng>;

interface Desired {
  destroyed: boolean;
  generation: string;
  units: number;
  label: string;
  dbr: boolean;
  drop: string[];
}

type Change = 'create' | 'update' | 'replace' | 'replace-dbr' | 'remove' | 'destroy';

type Interruption =
  | { kind: 'sigint' | 'sigint2' | 'sigkill'; after: { ms: number } | { steps: number }; gapMs?: number }
  | { kind: 'fault'; fault: FaultSpec; afterMs: number }
  | { kind: 'none' };

interface Plan {
  change: Change;
  desired: Desired;
  interruption: Interruption;
  recovery?: 'up' | 'clear' | 'import';
}

function planChange(rng: Rng, current: Desired, iteration: number): Plan {
  const desired: Desired = { ...current, drop: [...current.drop], destroyed: false };
  let change: Change;
  if (current.destroyed) change = 'create';
  else change = rng.pick(['update', 'update', 'replace', 'replace-dbr', 'remove', 'destroy'] as const);
  switch (change) {
    case 'create':
      desired.drop = [];
      desired.generation = `g${iteration}`;
      break;
    case 'update':
      if (rng.chance(0.5)) desired.units = current.units === 1 ? 2 : 1;
      else desired.label = `l${iteration}`;
      if (rng.chance(0.3)) desired.drop = [];
      break;
    case 'replace':
    case 'replace-dbr':
      desired.generation = `g${iteration}`;
      desired.dbr = change === 'replace-dbr';
      break;
    case 'remove': {
      const kept = NAMES.filter((n) => !current.drop.includes(n));
      desired.drop = kept.length > 3 ? NAMES.filter((n) => current.drop.includes(n) || rng.chance(0.4)) : [];
      break;
    }
    case 'destroy':
      desired.destroyed = true;
      break;
  }
  const operations: Record<Change, string[]> = {
    create: ['CreateEndpoint', 'CreateDrPlan', 'GetEndpoint', 'GetDrPlan', 'GetWorkRequest'],
    update: ['UpdateEndpoint', 'UpdateDrPlan', 'GetEndpoint', 'GetDrPlan', 'GetWorkRequest'],
    replace: ['CreateEndpoint', 'CreateDrPlan', 'DeleteEndpoint', 'DeleteDrPlan', 'GetEndpoint', 'GetDrPlan'],
    'replace-dbr': ['CreateEndpoint', 'CreateDrPlan', 'DeleteEndpoint', 'DeleteDrPlan', 'GetWorkRequest'],
    remove: ['DeleteEndpoint', 'DeleteDrPlan', 'GetEndpoint', 'GetDrPlan', 'CreateEndpoint', 'CreateDrPlan'],
    destroy: ['DeleteEndpoint', 'DeleteDrPlan', 'GetEndpoint', 'GetDrPlan'],
  };
  const workRequests: Record<Change, string[]> = {
    create: ['CreateEndpoint', 'CreateDrPlan'],
    update: ['UpdateEndpoint', 'UpdateDrPlan'],
    replace: ['CreateEndpoint', 'CreateDrPlan', 'DeleteEndpoint'],
    'replace-dbr': ['CreateEndpoint', 'CreateDrPlan', 'DeleteEndpoint'],
    remove: ['DeleteEndpoint', 'CreateEndpoint'],
    destroy: ['DeleteEndpoint'],
  };
  const after = () => (rng.chance(0.5) ? { ms: rng.int(300, 5000) } : { steps: rng.int(1, 6) });
  const kind = rng.pick(['sigint', 'sigint2', 'sigkill', 'sigkill', 'fault', 'fault-wr', 'none'] as const);
  let interruption: Interruption;
  if (kind === 'none') interruption = { kind };
  else if (kind === 'fault' || kind === 'fault-wr') {
    const operation = rng.pick(kind === 'fault' ? operations[change] : workRequests[change]);
    const afterMs = rng.chance(0.5) ? 0 : rng.int(200, 3000);
    const count = rng.int(1, 4);
    const fault: FaultSpec =
      kind === 'fault-wr'
        ? { operation, kind: 'fail-work-request', count }
        : rng.pick([
            { operation, status: 500, code: 'InternalServerError', message: 'injected by the fuzz', count },
            {
              operation,
              status: 429,
              code: 'TooManyRequests',
              message: 'injected by the fuzz',
              count,
              retryAfterSeconds: 1,
            },
            { operation, status: 400, code: 'InvalidParameter', message: 'injected by the fuzz', count: 1 },
            { operation, kind: 'latency', delayMs: rng.int(2000, 8000), count },
            { operation, kind: 'drop-response', count: 1 },
          ] as FaultSpec[]);
    interruption = { kind: 'fault', fault, afterMs };
  } else interruption = { kind, after: after(), gapMs: kind === 'sigint2' ? rng.int(0, 1500) : undefined };
  return { change, desired, interruption, recovery: rng.pick(['up', 'up', 'clear', 'import'] as const) };
}

function configure(cloud: Cloud, p: Program, d: Desired): void {
  p.setConfig({
    ...cloud.ociConfig,
    'fz:compartmentId': cloud.sandbox.compartmentId,
    'fz:textModelId': cloud.sandbox.textModelId,
    'fz:standbyRegion': cloud.sandbox.peerRegion,
    'fz:standbyGroupId': cloud.sandbox.standbyGroupId,
    'fz:generation': d.generation,
    'fz:units': d.units,
    'fz:label': d.label,
    'fz:dbr': d.dbr,
    'fz:drop': d.drop.join(','),
  });
}

interface CloudResource {
  id: string;
  name: string;
  state: string;
}

/** The program's endpoints and plans in the cloud that are not gone (DELETED) nor going (DELETING). */
async function inCloud(cloud: Cloud): Promise<CloudResource[]> {
  return (await everything(cloud)).filter((r) => r.state !== 'DELETED' && r.state !== 'DELETING');
}

/** The program's endpoints and plans in the cloud, those deleted and being deleted too. */
async function everything(cloud: Cloud): Promise<CloudResource[]> {
  const endpoints = (await cloud.t.language().listEndpoints({ compartmentId: cloud.sandbox.compartmentId }))
    .endpointCollection.items;
  const plans = (
    await cloud.t.dr(cloud.sandbox.peerRegion).listDrPlans({ drProtectionGroupId: cloud.sandbox.standbyGroupId })
  ).drPlanCollection.items;
  return [...endpoints, ...plans]
    .filter((r) => r.freeformTags?.fz)
    .map((r) => ({ id: r.id, name: r.freeformTags!.fz, state: r.lifecycleState! }));
}

/** The stack's checkpoint; a run stopped before it made the stack leaves none, an empty state. */
function checkpoint(p: Program): CheckpointDeployment | undefined {
  return existsSync(join(p.dir, '.ocikit', 'stacks', 'dev.json')) ? readCheckpoint(p) : undefined;
}

const nameOf = (urn: string) => urn.split('::').pop()!;
const ours = (type: string) => type === ENDPOINT || type === PLAN;

/** Runs ocikit, interrupting it as planned; returns what it printed and how it ended. */
async function interrupted(cloud: Cloud, p: Program, args: string[], how: Interruption): Promise<RunResult> {
  if (how.kind === 'none') return p.run(args);
  if (how.kind === 'fault') {
    if (how.afterMs === 0) {
      await cloud.t.emulator.admin.injectFault(how.fault);
      return p.run(args);
    }
    const run = p.run(args);
    await new Promise((r) => setTimeout(r, how.afterMs));
    await cloud.t.emulator.admin.injectFault(how.fault);
    return run;
  }
  const { child, done } = p.spawn(args);
  let steps = 0;
  const fire = () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (how.kind === 'sigkill') child.kill('SIGKILL');
    else {
      child.kill('SIGINT');
      if (how.kind === 'sigint2')
        setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGINT'), how.gapMs);
    }
  };
  let fired = false;
  const once = () => !fired && ((fired = true), fire());
  if ('ms' in how.after) setTimeout(once, how.after.ms);
  else {
    const wanted = how.after.steps;
    child.stdout!.on('data', (d) => {
      const lines = String(d).split('\n');
      steps += lines.filter((l) => / (creating|updating|deleting|replacing)( |$)/.test(l)).length;
      if (steps >= wanted) once();
    });
  }
  const result = await done;
  fired = true;
  return result;
}

/** The state names what the cloud holds: each live resource of the cloud is on record or pending creation. */
async function stateMatchesCloud(cloud: Cloud, p: Program, log: string): Promise<void> {
  const deployment = checkpoint(p);
  if (deployment) assertIntegrity(deployment);
  const resources = (deployment?.resources ?? []).filter((r) => ours(r.type));
  const pending = deployment?.pending_operations ?? [];
  const live = await inCloud(cloud);
  const tracked = new Set(resources.map((r) => r.id));
  for (const r of live)
    assert.ok(
      tracked.has(r.id) ||
        pending.some((o) => o.type === 'creating' && nameOf(o.resource.urn) === r.name) ||
        orphansAllowed.has(r.id),
      `${log}\n${r.name} ${r.id} (${r.state}) is in the cloud but not in the state, nor pending creation:\n${JSON.stringify(deployment, null, 1)}`,
    );
  // A resource OCI is deleting, or has deleted, may stay on record: the run was stopped while it
  // waited for the delete (Pulumi's DeleteStep fails, and deleteSnapshotMutation.End keeps the
  // resource), and the next run reads it back or deletes it again.
  const ids = new Set((await everything(cloud)).map((r) => r.id));
  for (const r of resources) {
    if ((r as { pendingReplacement?: boolean }).pendingReplacement) continue;
    assert.ok(ids.has(r.id!), `${log}\n${nameOf(r.urn)} ${r.id} is in the state but not in the cloud`);
  }
}

/** Ids the fuzz run allows to be untracked: what --clear-pending-creates left in the cloud. */
const orphansAllowed = new Set<string>();

async function converged(cloud: Cloud, p: Program, d: Desired, log: string): Promise<void> {
  const deployment = readCheckpoint(p);
  assertIntegrity(deployment);
  assert.equal(deployment.pending_operations, undefined, `${log}\npending operations left`);
  const resources = (deployment.resources ?? []).filter((r) => ours(r.type));
  const wanted = d.destroyed ? [] : NAMES.filter((n) => !d.drop.includes(n));
  assert.deepEqual(resources.map((r) => nameOf(r.urn)).sort(), wanted, `${log}\nthe state's resources`);
  assert.ok(
    resources.every((r) => !r.delete),
    `${log}\nnothing marked for deletion`,
  );
  const live = (await inCloud(cloud)).filter((r) => !orphansAllowed.has(r.id));
  assert.deepEqual(
    live.map((r) => [r.name, r.id, r.state]).sort(),
    resources.map((r) => [nameOf(r.urn), r.id, 'ACTIVE']).sort(),
    `${log}\nthe cloud holds what the state holds, ACTIVE, once each`,
  );
  assert.ok(!existsSync(join(p.dir, '.ocikit', 'stacks', 'dev.lock')), `${log}\nthe lock is released`);
  const preview = ok(await p.run(d.destroyed ? ['destroy', '--preview-only'] : ['preview']), 'preview');
  assert.doesNotMatch(preview.stdout, / (create|update|replace|delete)\n/, `${log}\n${preview.stdout}`);
  const exported = ok(await p.run(['stack', 'export']), 'stack export').stdout;
  const file = join(scratchDir('fuzz-export'), 'state.json');
  writeFileSync(file, exported);
  ok(await p.run(['stack', 'import', '--file', file]), 'stack import');
  assert.equal(
    ok(await p.run(['stack', 'export'])).stdout,
    exported,
    `${log}\nstack export | stack import round-trips`,
  );
}

for (const seed of SEEDS)
  test(`fuzz: seed ${seed}, ${ITERATIONS} changes, each interrupted, then recovered`, async () => {
    const cloud = await startCloud({ transitionDelaySeconds: 1 });
    try {
      const rng = prng(seed);
      const sdk = rng.pick(['@ocikit/oci', '@pulumi/oci']);
      console.log(`seed ${seed}: ${sdk}`);
      const p = program(inlineProgram('fz', index(sdk)), { PULUMI_NODEJS_TRANSPILE_ONLY: 'true', ...cloud.env });
      let current: Desired = { destroyed: true, generation: 'g0', units: 1, label: 'l0', dbr: false, drop: [] };
      const history: string[] = [];
      for (let i = 1; i <= ITERATIONS; i++) {
        const plan = planChange(rng, current, i);
        history.push(`seed ${seed} iteration ${i}: ${JSON.stringify(plan)}`);
        const log = history.join('\n');
        console.log(history.at(-1));
        configure(cloud, p, plan.desired);
        const args = plan.desired.destroyed ? ['destroy', '--yes'] : ['up', '--yes'];
        if (rng.chance(0.5)) args.push('--skip-preview');
        if (rng.chance(0.3)) args.push('--parallel', String(rng.int(1, 3)));
        const first = await interrupted(cloud, p, args, plan.interruption);
        await cloud.t.emulator.admin.clearFaults();
        assert.doesNotMatch(first.stderr, /\n\s+at /, `${log}\na stack trace:\n${first.stderr}`);
        if (first.signal !== 'SIGKILL') {
          assert.ok(first.stderr.trim().split('\n').length <= 1, `${log}\none line:\n${first.stderr}`);
          assert.ok(!existsSync(join(p.dir, '.ocikit', 'stacks', 'dev.lock')), `${log}\nthe lock is released`);
        }
        await stateMatchesCloud(cloud, p, `${log}\n--- first run (${first.code ?? first.signal}):\n${first.stdout}`);
        const pending = checkpoint(p)?.pending_operations ?? [];
        console.log(
          `  first run: ${first.code ?? first.signal}; pending: ${pending.map((o) => `${o.type} ${nameOf(o.resource.urn)}`).join(', ') || 'none'}`,
        );
        const pendingCreates = pending.filter((o) => o.type === 'creating');
        if (pendingCreates.length > 0 && plan.recovery !== 'up') {
          const refresh = ['refresh', '--yes'];
          if (plan.recovery === 'clear') {
            refresh.push('--clear-pending-creates');
            const tracked = new Set((readCheckpoint(p).resources ?? []).map((r) => r.id));
            ok(await p.run(refresh), 'refresh --clear-pending-creates');
            // What the cleared creates made is untracked, as Pulumi documents it.
            for (const r of await inCloud(cloud))
              if (!tracked.has(r.id) && pendingCreates.some((o) => nameOf(o.resource.urn) === r.name))
                orphansAllowed.add(r.id);
          } else {
            const tracked = new Set((readCheckpoint(p).resources ?? []).map((r) => r.id));
            const live = await inCloud(cloud);
            for (const o of pendingCreates) {
              const made = live.filter((r) => r.name === nameOf(o.resource.urn) && !tracked.has(r.id));
              if (made.length === 1)
                refresh.push('--import-pending-creates', o.resource.urn, '--import-pending-creates', made[0].id);
            }
            ok(await p.run(refresh), 'refresh --import-pending-creates');
          }
          await stateMatchesCloud(cloud, p, `${log}\n--- after ${refresh.join(' ')}`);
        }
        const recovery = await p.run(args.filter((a) => a !== '--skip-preview'));
        ok(recovery, `${log}\nthe recovering ${args[0]}`);
        await converged(
          cloud,
          p,
          plan.desired,
          `${log}\n--- first run (${first.code ?? first.signal}):\n${first.stdout}\n${first.stderr}\n--- recovery:\n${recovery.stdout}`,
        );
        current = plan.desired;
      }
    } finally {
      await cloud.close();
    }
  });
