// Runs interrupted half-way (Ctrl-C through the abort signal, and a killed process) against the
// real plugin and a real emulator whose resources take a while to become ACTIVE: the next up
// converges, with no duplicate and nothing left untracked.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startCloud, type Cloud } from './support/cloud';
import { checkSnapshot } from '../../src/engine';
import { makeProgram, diagnostics, steps, type TestProgram } from './support/harness';

const program = (units: number) => `
import * as pulumi from '@pulumi/pulumi';
import * as oci from '@pulumi/oci';
const cfg = new pulumi.Config();
const a = new oci.ailanguage.Endpoint('a', { compartmentId: cfg.require('compartmentId'), modelId: cfg.require('modelId'), displayName: 'int-a', inferenceUnits: ${units} });
const b = new oci.ailanguage.Endpoint('b', { compartmentId: cfg.require('compartmentId'), modelId: cfg.require('modelId'), displayName: 'int-b', inferenceUnits: ${units} });
export const ids = [a.id, b.id];
`;

describe('interrupted runs', () => {
  let cloud: Cloud;
  let prog: TestProgram;
  let config: Record<string, string>;
  const stateFile = () => join(prog.dir, '.ocikit/stacks/dev.json');
  const pendingOps = (): Array<{ type: string }> => {
    if (!existsSync(stateFile())) return [];
    try {
      return JSON.parse(readFileSync(stateFile(), 'utf8')).checkpoint.latest.pending_operations ?? [];
    } catch {
      return [];
    }
  };
  const live = async (name: string) =>
    (
      await cloud
        .language(cloud.sandbox.homeRegion)
        .listEndpoints({ compartmentId: cloud.sandbox.compartmentId, displayName: name })
    ).endpointCollection.items.filter((e) => !['DELETED', 'DELETING'].includes(e.lifecycleState));
  /** Polls until `cond` holds; fails, instead of waiting for ever, once `ended` settles or after 60 s. */
  const waitFor = async (what: string, cond: () => boolean, ended: Promise<unknown>) => {
    let over = false;
    const end = () => (over = true);
    void ended.then(end, end);
    const deadline = Date.now() + 60_000;
    while (!cond()) {
      if (over) throw new Error(`the run ended before a ${what}`);
      if (Date.now() > deadline) throw new Error(`no ${what} within 60 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  before(async () => {
    cloud = await startCloud({ transitionDelaySeconds: 3 });
    config = {
      'enginetest:compartmentId': cloud.sandbox.compartmentId,
      'enginetest:modelId': cloud.sandbox.aiLanguage.pretrainedModelIds.sentimentAnalysis,
    };
    prog = makeProgram(program(1), { providerEnv: cloud.providerEnv, config });
  });
  after(async () => {
    prog?.remove();
    await cloud?.close();
  });

  it('Ctrl-C (abort) while creating: the plugin is cancelled, what it started is recorded, the next up converges', async () => {
    const ac = new AbortController();
    const run = prog.run({ signal: ac.signal });
    await waitFor('pending create', () => pendingOps().some((op) => op.type === 'creating'), run);
    ac.abort();
    const r = await run;
    assert.equal(r.ok, false);
    assert.match(r.error!, /cancel/);
    // Pulumi's cancelEvent is the stream's end marker (a deferred NewCancelEvent), not a signal's
    // echo: consumers stop reading at it, so a Ctrl-C must not send one before the run's end.
    assert.deepEqual(
      r.events.flatMap((e, i) => (e.cancelEvent ? [i] : [])),
      [r.events.length - 1],
    );
    const again = await prog.run();
    assert.equal(again.ok, true, again.error);
    assert.equal((await live('int-a')).length, 1, 'no duplicate of a');
    assert.equal((await live('int-b')).length, 1, 'no duplicate of b');
    assert.equal(JSON.parse(readFileSync(stateFile(), 'utf8')).checkpoint.latest.pending_operations, undefined);
  });

  /**
   * Runs `up` in a process of its own and kills it (SIGKILL) once the state has a pending `type`
   * (and `ready` says so: e.g. the cloud has what the operation made).
   */
  const killWhile = async (type: string, ready: () => Promise<boolean> = async () => true) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        resolve(__dirname, 'support/run-child.ts'),
        JSON.stringify({ programDir: prog.dir, config, secretKeys: [], providerEnv: cloud.providerEnv }),
      ],
      { detached: true, stdio: 'ignore' },
    );
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await waitFor(`pending ${type}`, () => pendingOps().some((op) => op.type === type), exited);
      for (let i = 0; i < 1200 && !(await ready()); i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone: the failure above says why.
      }
    }
    await exited;
  };

  it('a killed process while updating: the stale lock is taken over, the pending update is read back, the next up converges', async () => {
    prog.write(program(2));
    await killWhile('updating');
    assert.ok(existsSync(join(prog.dir, '.ocikit/stacks/dev.lock')), 'the killed run left its lock');
    // As Pulumi records a pending update (snapshot.go doUpdate: the step's new state): the inputs
    // being sent, no outputs yet, the old id and times; the resource itself stays as it was.
    type Recorded = { urn: string; id?: string; inputs: Record<string, unknown>; outputs?: unknown; modified?: string };
    const latest = JSON.parse(readFileSync(stateFile(), 'utf8')).checkpoint.latest as {
      resources: Recorded[];
      pending_operations: Array<{ type: string; resource: Recorded }>;
    };
    const op = latest.pending_operations.find((o) => o.type === 'updating')!.resource;
    const recorded = latest.resources.find((x) => x.urn === op.urn)!;
    assert.deepEqual([op.inputs.inferenceUnits, recorded.inputs.inferenceUnits], [2, 1]);
    assert.deepEqual([op.id, op.outputs, op.modified], [recorded.id, undefined, recorded.modified]);
    const r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.ok(
      diagnostics(r.events).some((m) => /interrupted updating/.test(m)),
      diagnostics(r.events).join('\n'),
    );
    for (const name of ['int-a', 'int-b']) {
      const eps = await live(name);
      assert.equal(eps.length, 1, `exactly one ${name}`);
      assert.equal(eps[0].inferenceUnits, 2);
    }
    assert.equal(JSON.parse(readFileSync(stateFile(), 'utf8')).checkpoint.latest.pending_operations, undefined);
  });

  // Running refresh (or destroy, import, a targeted up) after an interruption is natural: the
  // interrupted create stays on record for the next up, which adopts what it made.
  it('a killed process while creating, then a refresh: the create stays on record, the next up adopts what it made', async () => {
    prog.write(creating);
    await killWhile('creating', async () => (await live('int-c')).length > 0);
    const made = (await live('int-c')).map((e) => e.id);
    assert.equal(made.length, 1, 'the killed run made it');
    const refreshed = await prog.run({ operation: 'refresh' });
    assert.equal(refreshed.ok, true, refreshed.error);
    assert.ok(
      diagnostics(refreshed.events, 'warning').some((m) => /::c: .*kept on record/.test(m)),
      diagnostics(refreshed.events).join('\n'),
    );
    assert.deepEqual(
      pendingOps().map((op) => op.type),
      ['creating'],
    );
    const r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(
      (await live('int-c')).map((e) => e.id),
      made,
      'adopted, not made twice',
    );
    assert.equal(pendingOps().length, 0);
  });

  // The killed run's update goes on in OCI and fails there: the next up waits for it to end,
  // records FAILED (not the UPDATING it first reads), and replaces the endpoint.
  it('a killed process while updating, the update then failing in OCI: the next up sees it FAILED and replaces it', async () => {
    prog.write(updating(1));
    assert.equal((await prog.run()).ok, true);
    const [before] = await live('int-u');
    await cloud.emulator.admin!.injectFault({ operation: 'UpdateEndpoint', kind: 'fail-work-request', count: 1 });
    prog.write(updating(2));
    const language = cloud.language(cloud.sandbox.homeRegion);
    await killWhile(
      'updating',
      async () => (await language.getEndpoint({ endpointId: before.id })).endpoint.lifecycleState === 'UPDATING',
    );
    const r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.ok(steps(r.events).includes('replace u'), steps(r.events).join(','));
    const now = await live('int-u');
    assert.deepEqual(
      now.map((e) => [e.lifecycleState, e.inferenceUnits]),
      [['ACTIVE', 2]],
    );
    assert.notEqual(now[0].id, before.id);
    const u = prog.resources().find((x) => x.urn.endsWith('::u')) as { outputs?: { state?: string } } | undefined;
    assert.equal(u?.outputs?.state, 'ACTIVE');
  });

  // Delete-before-replace killed between the delete and the replacement's create: the original
  // stays in the state marked pendingReplacement (what refers to it still finds it), and the next
  // up creates the replacement, adopting what the killed create made.
  it('a killed process between the delete and the create of a delete-before-replace: the state stays whole, the next up converges', async () => {
    prog.write(dbr('one'));
    assert.equal((await prog.run()).ok, true);
    const [original] = await live('int-dbr');
    prog.write(dbr('two'));
    await killWhile('creating');
    const killed = prog.resources();
    const src = killed.filter((x) => x.urn.endsWith('::src'));
    assert.deepEqual(
      src.map((x) => [x.id, (x as { pendingReplacement?: boolean }).pendingReplacement]),
      [[original.id, true]],
    );
    assert.deepEqual(checkSnapshot(killed as never, 'dev').integrity, [], 'the dependent still finds it');
    const r = await prog.run();
    assert.equal(r.ok, true, r.error);
    const now = await live('int-dbr');
    assert.equal(now.length, 1, now.map((e) => e.id).join(','));
    assert.notEqual(now[0].id, original.id);
    const after = prog.resources().filter((x) => x.urn.endsWith('::src'));
    assert.deepEqual(
      after.map((x) => [x.id, (x as { pendingReplacement?: boolean }).pendingReplacement]),
      [[now[0].id, undefined]],
    );
    assert.equal(pendingOps().length, 0);
    const again = await prog.run();
    assert.deepEqual(Object.keys(again.changes), ['same']);
  });

  // A create-before-delete replacement killed while creating, then a program that no longer asks
  // for it (reverted): the next up finishes the killed create (its original becomes a copy to
  // delete), and the finished replacement then takes the reverted program's steps. Nothing is left
  // untracked, where sending it again only with the same inputs left the replacement behind.
  it('a killed process while creating a replacement, then the program reverted: the killed create is finished, nothing is left untracked', async () => {
    prog.write(replacing('seven'));
    assert.equal((await prog.run()).ok, true);
    const [original] = await live('int-r');
    prog.write(replacing('eight'));
    await killWhile('creating', async () => (await live('int-r')).length === 2);
    const killed = (await live('int-r')).find((e) => e.id !== original.id)!;
    prog.write(replacing('seven'));
    const r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.ok(
      diagnostics(r.events).some((m) =>
        m.includes(`that create was sent again as it was and OCI answered with ${killed.id}`),
      ),
      diagnostics(r.events).join('\n'),
    );
    assert.ok(!diagnostics(r.events).some((m) => /not tracked/.test(m)), diagnostics(r.events).join('\n'));
    const now = await live('int-r');
    assert.equal(now.length, 1, now.map((e) => e.id).join(','));
    assert.deepEqual(now[0].freeformTags, { generation: 'seven' });
    assert.deepEqual(
      prog
        .resources()
        .filter((x) => x.urn.endsWith('::r'))
        .map((x) => [x.id, Boolean(x.delete)]),
      [[now[0].id, false]],
    );
    assert.equal(pendingOps().length, 0);
  });

  // A targeted up finishes the killed create of a resource it targets, then gives it the program's
  // new inputs (here a new display name, an update in place).
  it('a killed process while creating, then an up targeting it with other inputs: finished, then updated', async () => {
    prog.write(creating3('int-c3'));
    await killWhile('creating', async () => (await live('int-c3')).length > 0);
    const [made] = await live('int-c3');
    prog.write(creating3('int-c3-renamed'));
    const r = await prog.run({ targets: ['urn:pulumi:dev::enginetest::oci:AiLanguage/endpoint:Endpoint::c3'] });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(await live('int-c3'), []);
    assert.deepEqual(
      (await live('int-c3-renamed')).map((e) => e.id),
      [made.id],
    );
    assert.equal(pendingOps().length, 0);
  });

  // A destroy after a killed create finishes the create to learn what it made, and deletes it.
  it('a killed process while creating, then a destroy: what the killed create made is deleted too', async () => {
    prog.write(creating2);
    await killWhile('creating', async () => (await live('int-c2')).length > 0);
    assert.equal((await live('int-c2')).length, 1, 'the killed run made it');
    const r = await prog.run({ operation: 'destroy' });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(await live('int-c2'), []);
    assert.equal(pendingOps().length, 0);
    assert.deepEqual(prog.resources() ?? [], []);
  });

  // A create-before-delete replacement killed while it deletes the original: the state holds the
  // replacement and the original (delete: true) with a pending delete.
  for (const gone of [true, false])
    it(`a killed process while deleting a replaced original ${gone ? 'that is then gone' : 'that still exists'}: the replacement is kept, nothing is created twice`, async () => {
      const language = cloud.language(cloud.sandbox.homeRegion);
      prog.write(replacing(gone ? 'one' : 'three'));
      assert.equal((await prog.run()).ok, true);
      const original = (await live('int-r'))[0].id;
      prog.write(replacing(gone ? 'two' : 'four'));
      await killWhile('deleting');
      const replacement = (await live('int-r')).find((e) => e.id !== original)!.id;
      if (gone) {
        // Whether or not the killed run's delete reached OCI, the original is now gone.
        const state = async () => (await language.getEndpoint({ endpointId: original })).endpoint.lifecycleState;
        if ((await state()) === 'ACTIVE') await language.deleteEndpoint({ endpointId: original });
        for (let i = 0; i < 200 && (await state()) !== 'DELETED'; i++) await new Promise((r) => setTimeout(r, 50));
        assert.equal(await state(), 'DELETED');
      }
      const r = await prog.run();
      assert.equal(r.ok, true, r.error);
      assert.deepEqual(
        (await live('int-r')).map((e) => e.id),
        [replacement],
        'the replacement only: not created again, the original deleted',
      );
      const rs = prog.resources().filter((x) => x.urn.endsWith('::r'));
      assert.deepEqual(
        rs.map((x) => [x.id, Boolean(x.delete)]),
        [[replacement, false]],
      );
      const again = await prog.run();
      assert.equal(again.ok, true, again.error);
      assert.deepEqual(Object.keys(again.changes), ['same']);
    });
});

const creating = `
import * as pulumi from '@pulumi/pulumi';
import * as oci from '@pulumi/oci';
const cfg = new pulumi.Config();
new oci.ailanguage.Endpoint('c', { compartmentId: cfg.require('compartmentId'), modelId: cfg.require('modelId'), displayName: 'int-c' });
`;

const creating3 = (name: string) => creating.replace(/'c'/, "'c3'").replace("'int-c'", `'${name}'`);

const creating2 = creating.replace(/'c'/, "'c2'").replace('int-c', 'int-c2');

const updating = (units: number) => `
import * as pulumi from '@pulumi/pulumi';
import * as oci from '@pulumi/oci';
const cfg = new pulumi.Config();
new oci.ailanguage.Endpoint('u', { compartmentId: cfg.require('compartmentId'), modelId: cfg.require('modelId'), displayName: 'int-u', inferenceUnits: ${units} });
`;

const dbr = (generation: string) => `
import * as pulumi from '@pulumi/pulumi';
import * as oci from '@pulumi/oci';
const cfg = new pulumi.Config();
const src = new oci.ailanguage.Endpoint('src', {
  compartmentId: cfg.require('compartmentId'),
  modelId: cfg.require('modelId'),
  displayName: 'int-dbr',
  freeformTags: { generation: '${generation}' },
}, { replaceOnChanges: ['freeformTags'], deleteBeforeReplace: true });
new oci.ailanguage.Endpoint('dep', {
  compartmentId: cfg.require('compartmentId'),
  modelId: cfg.require('modelId'),
  displayName: src.id.apply((id) => 'dep-' + id.slice(-6)),
});
`;

const replacing = (generation: string) => `
import * as pulumi from '@pulumi/pulumi';
import * as oci from '@pulumi/oci';
const cfg = new pulumi.Config();
new oci.ailanguage.Endpoint('r', {
  compartmentId: cfg.require('compartmentId'),
  modelId: cfg.require('modelId'),
  displayName: 'int-r',
  freeformTags: { generation: '${generation}' },
}, { replaceOnChanges: ['freeformTags'] });
`;
