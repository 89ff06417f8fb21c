import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertIntegrity,
  injectedError,
  inlineProgram,
  liveEndpoints,
  ok,
  program,
  readCheckpoint,
  startCloud,
  type Cloud,
  type Program,
} from '../support/programs';

// Failures and interruptions of the steps other than create (update, replace, delete, refresh),
// each followed by the next run and a look at the cloud: the state matches the cloud, and the
// next up (or destroy) converges with no orphan and no duplicate.

const INDEX = `import * as pulumi from '@pulumi/pulumi';
import * as oci from '@ocikit/oci';

const config = new pulumi.Config();
const endpoint = (name: string, opts?: pulumi.CustomResourceOptions) =>
  new oci.ailanguage.Endpoint(name, {
    compartmentId: config.require('compartmentId'),
    modelId: config.require('textModelId'),
    displayName: 'itr-' + name,
    inferenceUnits: config.getNumber('units') ?? 1,
    freeformTags: { generation: config.get('generation') ?? 'one' },
  }, { replaceOnChanges: ['freeformTags'], deleteBeforeReplace: config.getBoolean('dbr') ?? false, ...opts });
const first = endpoint('first');
endpoint('second', { dependsOn: [first] });
if (config.getBoolean('kept') ?? false) endpoint('kept', { retainOnDelete: true });
`;

function itr(cloud: Cloud, extra: Record<string, string> = {}): Program {
  const p = program(inlineProgram('itr', INDEX), { PULUMI_NODEJS_TRANSPILE_ONLY: 'true', ...cloud.env });
  configure(cloud, p, extra);
  return p;
}

function configure(cloud: Cloud, p: Program, extra: Record<string, string> = {}): void {
  p.setConfig({
    ...cloud.ociConfig,
    'itr:compartmentId': cloud.sandbox.compartmentId,
    'itr:textModelId': cloud.sandbox.textModelId,
    ...extra,
  });
}

interface Live {
  id: string;
  name: string;
  units: number;
  generation?: string;
  state: string;
}

/** The endpoints of the program in the cloud (not deleted), by name. */
async function live(cloud: Cloud): Promise<Live[]> {
  return (await liveEndpoints(cloud, 'itr-'))
    .map((e) => ({
      id: e.id,
      name: e.displayName!.slice(4),
      units: e.inferenceUnits!,
      generation: e.freeformTags?.generation,
      state: e.lifecycleState!,
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

interface StateEndpoint {
  name: string;
  id?: string;
  delete: boolean;
  pendingReplacement: boolean;
  units?: number;
}

/** The endpoints of the state, in order (providers and the stack left out). */
function inState(p: Program): StateEndpoint[] {
  return (readCheckpoint(p).resources ?? [])
    .filter((r) => r.type === 'oci:AiLanguage/endpoint:Endpoint')
    .map((r) => ({
      name: r.urn.split('::').pop()!,
      id: r.id,
      delete: Boolean(r.delete),
      pendingReplacement: Boolean((r as { pendingReplacement?: boolean }).pendingReplacement),
      units: (r as { inputs?: { inferenceUnits?: number } }).inputs?.inferenceUnits,
    }));
}

/** The state and the cloud name the same endpoints, with nothing pending; a preview has nothing to do. */
async function matches(cloud: Cloud, p: Program): Promise<void> {
  const deployment = readCheckpoint(p);
  assertIntegrity(deployment);
  assert.equal(deployment.pending_operations, undefined);
  const state = inState(p);
  assert.deepEqual(
    state.map((r) => [r.name, r.id, r.delete]).sort(),
    (await live(cloud))
      .filter((e) => e.name !== 'kept')
      .map((e) => [e.name, e.id, false])
      .sort(),
  );
}

async function converged(cloud: Cloud, p: Program): Promise<void> {
  ok(await p.run(['up', '--yes']), 'the converging up');
  await matches(cloud, p);
  const again = ok(await p.run(['preview']));
  assert.doesNotMatch(again.stdout, / (create|update|replace|delete)\n/, again.stdout);
}

const fault = injectedError;

/**
 * Starts `ocikit <args>` and kills it (SIGKILL) once its display shows `seen` and the cloud
 * says `ready`. Returns what it printed.
 */
async function killedWhen(
  p: Program,
  args: string[],
  seen: RegExp,
  ready: () => Promise<boolean> = async () => true,
): Promise<string> {
  const { child, done } = p.spawn(args);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (seen.test(out)) {
        child.stdout!.off('data', check);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.on('close', () => reject(new Error(`ocikit ended before ${seen}:\n${out}`)));
  });
  for (let i = 0; i < 400 && !(await ready()); i++) await new Promise((r) => setTimeout(r, 50));
  child.kill('SIGKILL');
  await done;
  return out;
}

// Pulumi's UpdateStep.Apply (pkg/resource/deploy/step.go) fails the step on an error that is not
// a partial failure, and updateSnapshotMutation.End (pkg/backend/snapshot.go) then only drops the
// pending update: the old state stays, and the next run diffs against it and updates again.
test('an update OCI refuses keeps the old inputs on record; the next up updates', async () => {
  const cloud = await startCloud();
  try {
    const p = itr(cloud);
    ok(await p.run(['up', '--yes']));
    await cloud.t.emulator.admin.injectFault({ operation: 'UpdateEndpoint', ...fault });
    configure(cloud, p, { 'itr:units': '2' });
    const failed = await p.run(['up', '--yes']);
    assert.notEqual(failed.code, 0);
    assert.match(failed.stdout + failed.stderr, /injected by the test/);
    assert.doesNotMatch(failed.stderr, /\n\s+at /);
    // `first`'s update was refused, and `second`'s (it depends on `first`) never ran: the cloud and
    // the state keep the old inputs.
    const units = (xs: Array<{ name: string; units?: number }>) => xs.map((x) => [x.name, x.units]);
    const old = [
      ['first', 1],
      ['second', 1],
    ];
    assert.deepEqual(units(await live(cloud)), old);
    assert.deepEqual(units(inState(p)), old);
    await matches(cloud, p);
    const preview = ok(await p.run(['preview']));
    assert.match(preview.stdout, /~ +oci:AiLanguage\/endpoint:Endpoint first update\n/);
    assert.match(preview.stdout, /~ +oci:AiLanguage\/endpoint:Endpoint second update\n/);
    await converged(cloud, p);
    assert.deepEqual(
      (await live(cloud)).map((e) => [e.name, e.units]),
      [
        ['first', 2],
        ['second', 2],
      ],
    );
  } finally {
    await cloud.close();
  }
});

// The update reached OCI but its work request failed: the endpoint is FAILED. The step fails
// with the endpoint's state as it now is; the next up replaces it.
test('an update whose work request fails records the FAILED endpoint; the next up replaces it', async () => {
  const cloud = await startCloud();
  try {
    const p = itr(cloud);
    ok(await p.run(['up', '--yes']));
    const before = await live(cloud);
    await cloud.t.emulator.admin.injectFault({ operation: 'UpdateEndpoint', kind: 'fail-work-request', count: 1 });
    configure(cloud, p, { 'itr:units': '2' });
    const failed = await p.run(['up', '--yes', '-p', '1']);
    assert.notEqual(failed.code, 0, failed.stdout);
    assert.doesNotMatch(failed.stderr, /\n\s+at /);
    const first = (await live(cloud)).find((e) => e.name === 'first')!;
    assert.equal(first.state, 'FAILED');
    assertIntegrity(readCheckpoint(p));
    assert.equal(readCheckpoint(p).pending_operations, undefined);
    const recorded = (readCheckpoint(p).resources ?? []).find((r) => r.urn.endsWith('::first')) as unknown as {
      outputs: { state: string };
    };
    assert.equal(recorded.outputs.state, 'FAILED');
    await converged(cloud, p);
    const after = await live(cloud);
    assert.deepEqual(
      after.map((e) => [e.name, e.units, e.state]),
      [
        ['first', 2, 'ACTIVE'],
        ['second', 2, 'ACTIVE'],
      ],
    );
    assert.notEqual(after[0].id, before[0].id, 'the FAILED endpoint was replaced');
  } finally {
    await cloud.close();
  }
});

// A create-before-delete replacement whose delete of the original fails: Pulumi's DeleteStep
// fails and deleteSnapshotMutation.End (pkg/backend/snapshot.go) leaves the original on record,
// marked for deletion, after its replacement. The next up deletes it.
test('a replacement whose delete of the original fails keeps the original on record; the next up deletes it', async () => {
  const cloud = await startCloud();
  try {
    const p = itr(cloud);
    ok(await p.run(['up', '--yes']));
    const originals = await live(cloud);
    await cloud.t.emulator.admin.injectFault({
      operation: 'DeleteEndpoint',
      ...fault,
    });
    configure(cloud, p, { 'itr:generation': 'two' });
    const failed = await p.run(['up', '--yes']);
    assert.notEqual(failed.code, 0, failed.stdout);
    assert.doesNotMatch(failed.stderr, /\n\s+at /);
    assertIntegrity(readCheckpoint(p));
    const state = inState(p);
    const cloudNow = await live(cloud);
    // What is live in the state is the replacements; every original still in the cloud is on record.
    assert.deepEqual(
      state
        .filter((r) => !r.delete)
        .map((r) => r.id)
        .sort(),
      cloudNow
        .filter((e) => e.generation === 'two')
        .map((e) => e.id)
        .sort(),
    );
    for (const e of cloudNow.filter((x) => x.generation === 'one'))
      assert.ok(
        state.some((r) => r.id === e.id && r.delete),
        `${e.name}'s original is on record`,
      );
    assert.ok(
      state.some((r) => r.delete),
      'the failed delete stays on record',
    );
    await converged(cloud, p);
    const now = await live(cloud);
    assert.deepEqual(
      now.map((e) => [e.name, e.generation]),
      [
        ['first', 'two'],
        ['second', 'two'],
      ],
    );
    for (const o of originals) assert.ok(!now.some((e) => e.id === o.id), `${o.name}'s original is deleted`);
  } finally {
    await cloud.close();
  }
});

// A delete-before-replace replacement whose create fails after the original's delete: the
// original stays on record marked pendingReplacement (Pulumi's DeleteStep for a replacement; its
// deleteSnapshotMutation.End keeps it), so the state never names a deleted endpoint as live; the
// next up creates it, even with the program reverted to the original's inputs (Pulumi's step
// generator replaces whatever is pendingReplacement: continueStepsFromDiff).
test('a delete-before-replace whose create fails keeps the deleted original only as pendingReplacement; the next up creates it', async () => {
  const cloud = await startCloud();
  try {
    const p = itr(cloud, { 'itr:dbr': 'true' });
    ok(await p.run(['up', '--yes']));
    await cloud.t.emulator.admin.injectFault({ operation: 'CreateEndpoint', ...fault });
    configure(cloud, p, { 'itr:dbr': 'true', 'itr:generation': 'two' });
    const failed = await p.run(['up', '--yes']);
    assert.notEqual(failed.code, 0, failed.stdout);
    assert.match(failed.stdout + failed.stderr, /injected by the test/);
    assertIntegrity(readCheckpoint(p));
    const ids = new Set((await live(cloud)).map((e) => e.id));
    const state = inState(p);
    assert.ok(
      state.some((r) => r.pendingReplacement),
      JSON.stringify(state),
    );
    for (const r of state)
      assert.equal(ids.has(r.id!), !r.pendingReplacement, `${r.name} ${r.id}: live in the state iff in the cloud`);
    configure(cloud, p, { 'itr:dbr': 'true' });
    await converged(cloud, p);
    assert.deepEqual(
      (await live(cloud)).map((e) => [e.name, e.generation]),
      [
        ['first', 'one'],
        ['second', 'one'],
      ],
    );
  } finally {
    await cloud.close();
  }
});

// A destroy killed while OCI deletes `second` (deleted first: it depends on `first`): the state
// names the delete it was waiting for, both endpoints stay on record, and the next destroy ends
// the job. retainOnDelete's endpoint is left in the cloud and dropped from the state.
test('a destroy killed half-way leaves a whole state; the next destroy finishes, keeping what retainOnDelete keeps', async () => {
  const cloud = await startCloud({ transitionDelaySeconds: 3 });
  try {
    const p = itr(cloud, { 'itr:kept': 'true' });
    ok(await p.run(['up', '--yes']));
    const kept = (await live(cloud)).find((e) => e.name === 'kept')!;
    await killedWhen(p, ['destroy', '--yes', '-p', '1'], /second deleting/, async () =>
      (await live(cloud)).every((e) => e.name !== 'second'),
    );
    const killed = readCheckpoint(p);
    assertIntegrity(killed);
    assert.deepEqual(
      (killed.pending_operations ?? []).map((o) => [o.type, o.resource.urn.split('::').pop()]),
      [['deleting', 'second']],
    );
    assert.ok(existsSync(join(p.dir, '.ocikit/stacks/dev.json.bak')), 'the backup of the state before the run');
    // A refresh reads it as any resource in the state (Pulumi keeps only pending creates): found
    // gone once OCI has finished the delete, it is shown and counted deleted, and the pending
    // delete is dropped.
    const { language } = cloud.t;
    const deleted = async () =>
      (await language().listEndpoints({ compartmentId: cloud.sandbox.compartmentId })).endpointCollection.items.every(
        (e) => e.displayName !== 'itr-second' || e.lifecycleState === 'DELETED',
      );
    while (!(await deleted())) await new Promise((resolve) => setTimeout(resolve, 200));
    const previewed = await p.run(['refresh', '--preview-only']);
    ok(previewed, 'the preview of the refresh');
    assert.match(previewed.stdout, /^ - +oci:AiLanguage\/endpoint:Endpoint second delete$/m);
    assert.doesNotMatch(previewed.stdout, /interrupted/);
    const refreshed = await p.run(['refresh', '--yes']);
    ok(refreshed, 'the refresh');
    assert.match(refreshed.stdout, /^ - +oci:AiLanguage\/endpoint:Endpoint second deleted/m);
    assert.match(refreshed.stdout, /^ +- 1 deleted$/m);
    assert.doesNotMatch(refreshed.stdout, /resolved the interrupted/);
    const after = readCheckpoint(p);
    assert.equal(after.pending_operations, undefined);
    assert.deepEqual(
      (after.resources ?? []).map((r) => r.urn.split('::').pop()).filter((n) => n === 'second'),
      [],
    );
    ok(await p.run(['destroy', '--yes']), 'the second destroy');
    assert.deepEqual(
      (await live(cloud)).map((e) => e.id),
      [kept.id],
      'only the retained endpoint is left in the cloud',
    );
    const destroyed = readCheckpoint(p);
    assert.deepEqual(destroyed.resources ?? [], []);
    assert.equal(destroyed.pending_operations, undefined);
  } finally {
    await cloud.close();
  }
});

// A failed delete (OCI refuses it, or its work request fails) stops a destroy (no
// --continue-on-error): what was deleted is gone from the state, what was not stays, and the next
// destroy finishes.
for (const kind of ['error', 'fail-work-request'] as const)
  test(`a destroy whose delete fails (${kind}) keeps on record what it did not delete; the next destroy finishes`, async () => {
    const cloud = await startCloud();
    try {
      const p = itr(cloud);
      ok(await p.run(['up', '--yes']));
      await cloud.t.emulator.admin.injectFault(
        kind === 'error' ? { operation: 'DeleteEndpoint', ...fault } : { operation: 'DeleteEndpoint', kind, count: 1 },
      );
      const failed = await p.run(['destroy', '--yes']);
      assert.notEqual(failed.code, 0, failed.stdout);
      assert.doesNotMatch(failed.stderr, /\n\s+at /);
      assert.equal(failed.stderr.trim().split('\n').length, 1, failed.stderr);
      await matches(cloud, p);
      assert.equal(inState(p).length, 2);
      ok(await p.run(['destroy', '--yes']), 'the second destroy');
      assert.deepEqual(await live(cloud), []);
      assert.deepEqual(readCheckpoint(p).resources ?? [], []);
    } finally {
      await cloud.close();
    }
  });

// A refresh killed while it reads: the state on disk is still a whole checkpoint (every write is
// a temporary file renamed over it), the backup of the state before the run is there, and the
// next up has nothing to do.
test('a refresh killed half-way leaves a whole checkpoint and its backup; the next up has nothing to do', async () => {
  const cloud = await startCloud();
  try {
    const p = itr(cloud);
    ok(await p.run(['up', '--yes']));
    const before = readFileSync(join(p.dir, '.ocikit/stacks/dev.json'), 'utf8');
    await cloud.t.emulator.admin.injectFault({ operation: 'GetEndpoint', kind: 'latency', delayMs: 3000, count: 1 });
    await killedWhen(p, ['refresh', '--yes', '-p', '1'], /refreshing/);
    assertIntegrity(readCheckpoint(p));
    assert.equal(readFileSync(join(p.dir, '.ocikit/stacks/dev.json.bak'), 'utf8'), before);
    await matches(cloud, p);
    await converged(cloud, p);
    assert.deepEqual(
      readdirSync(join(p.dir, '.ocikit/stacks')).filter((f) => f.endsWith('.tmp')),
      [],
      'no temporary file is left',
    );
  } finally {
    await cloud.close();
  }
});
