// Step-generator tests against a small provider plugin (support/fake-provider.ts) for behaviour the
// real plugin cannot be made to show on demand (provider-requested delete-before-replace, partial
// failures, exact call order). Real programs through their own cmd/run, real gRPC, real state files.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openStackState } from '../../src/engine';
import { jsonEvent } from '../../src/display/json-event';
import { makeProgram, steps, diagnostics, type TestProgram } from './support/harness';

const urnName = (urn: string) => urn.split('::').pop();

const fake = [resolve(__dirname, 'support/fake-provider.ts')];

const header = `import * as pulumi from '@pulumi/pulumi';
class Thing extends pulumi.CustomResource {
  declare readonly state: pulumi.Output<string>;
  declare readonly size: pulumi.Output<number>;
  declare readonly password: pulumi.Output<string>;
  constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    super('oci:Test/thing:Thing', name, { ...args, state: undefined }, opts);
  }
  static get(name: string, id: string) {
    return new Thing(name, { size: undefined }, { id });
  }
}
`;

const stage1 = `
const grp = new pulumi.ComponentResource('test:index:Group', 'grp');
const a = new Thing('a', { size: 1, replaceMe: 'x' }, { parent: grp });
const b = new Thing('b', { ref: a.id, dbr: 'x' });
const c = new Thing('c', { size: 1 }, { dependsOn: [b] });
new Thing('p', { size: 1 }, { protect: true });
new Thing('keep', { size: 1 }, { retainOnDelete: true });
new Thing('ig', { tag: 'one' }, { ignoreChanges: ['tag'] });
const s = new Thing('s', { password: pulumi.secret('hunter2') });
export const pw = s.password;
export const count = pulumi.output(pulumi.runtime.invoke('oci:Test/getThing:getThing', { q: 1 })).apply((r) => r.count);
export const cSize = c.size;
`;

const stage2 = `
const grp = new pulumi.ComponentResource('test:index:Group', 'grp');
const a = new Thing('a', { size: 1, replaceMe: 'y' }, { parent: grp });
const b = new Thing('b', { ref: a.id, dbr: 'y' });
new Thing('p', { size: 1 }, { protect: true });
new Thing('ig', { tag: 'two' }, { ignoreChanges: ['tag'] });
const s = new Thing('s', { password: pulumi.secret('hunter2') });
export const pw = s.password;
export const bId = b.id;
`;

describe('step generator (fake provider)', () => {
  let prog: TestProgram;
  let log: string;
  let cloud: string;
  const calls = () =>
    readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .filter((c) => c && !c.startsWith('check'));
  const reset = () => writeFileSync(log, '');
  const cloudState = () => JSON.parse(readFileSync(cloud, 'utf8')) as Record<string, Record<string, unknown>>;
  const stateText = () => readFileSync(join(prog.dir, '.ocikit/stacks/dev.json'), 'utf8');
  before(() => {
    prog = makeProgram(header, { pluginCommand: fake });
    log = join(prog.dir, 'calls.log');
    cloud = join(prog.dir, 'cloud.json');
    process.env.FAKE_PROVIDER_STORE = cloud;
    process.env.FAKE_PROVIDER_LOG = log;
    reset();
  });
  after(() => prog.remove());

  it('creates every resource, components and parents included, with invoke and secret outputs', async () => {
    prog.write(header + stage1);
    const r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.deepEqual([...new Set(steps(r.events))].sort(), [
      'create a',
      'create b',
      'create c',
      'create grp',
      'create ig',
      'create keep',
      'create p',
      'create s',
    ]);
    // + the stack; not the default provider, an internal step Pulumi does not count (isInternalStep)
    assert.equal(r.changes.create, 9);
    // A component's outputs are reported once, when it registers them (the stack's at the end).
    const outputsOf = (name: string) => r.events.filter((e) => e.resOutputsEvent?.metadata.urn.endsWith(`::${name}`));
    assert.equal(outputsOf('grp').length, 1);
    assert.equal(outputsOf('enginetest-dev').length, 1);
    assert.ok(outputsOf('enginetest-dev')[0].resOutputsEvent!.metadata.new!.outputs!.cSize !== undefined);
    assert.equal(r.outputs.count, 0);
    assert.equal(r.outputs.cSize, 1);
    const pw = r.outputs.pw as Record<string, unknown>;
    assert.equal(
      pw['4dabf18193072939515e22adb298388d'],
      '1b47061264138c4ac30d75fd1eb44270',
      'the secret output stays a secret',
    );
    // b waited for a, c for b (dependsOn).
    const order = calls().filter((c) => c.startsWith('create'));
    assert.ok(order.indexOf('create a') < order.indexOf('create b'));
    assert.ok(order.indexOf('create b') < order.indexOf('create c'));
    // State: Pulumi checkpoint, a's URN is qualified by its component parent, no secret in plain text.
    const text = stateText();
    assert.ok(!text.includes('hunter2'), 'the secret is not in the state in plain text');
    assert.ok(!JSON.stringify(r.events).includes('hunter2'), 'nor in the engine events (--json)');
    const cp = JSON.parse(text);
    assert.equal(cp.version, 3);
    const urns = cp.checkpoint.latest.resources.map((x: { urn: string }) => x.urn);
    assert.ok(urns.includes('urn:pulumi:dev::enginetest::test:index:Group$oci:Test/thing:Thing::a'));
    assert.ok(urns.includes('urn:pulumi:dev::enginetest::pulumi:providers:oci::default'));
    assert.equal(cp.checkpoint.latest.pending_operations, undefined);
  });

  it('previews a change without touching the cloud or the state', async () => {
    prog.write(header + stage2);
    const before = stateText();
    const cloudBefore = readFileSync(cloud, 'utf8');
    reset();
    const r = await prog.run({ preview: true });
    assert.equal(r.ok, true, r.error);
    assert.equal(stateText(), before);
    assert.equal(readFileSync(cloud, 'utf8'), cloudBefore);
    assert.ok(!calls().some((c) => /^(create|update|delete)/.test(c)), calls().join(','));
    assert.equal(r.changes.replace, 2);
    assert.equal(r.changes.delete, 2);
  });

  it('replaces create-before-delete by default and delete-before-replace when the provider asks; deletes removed resources; honours ignoreChanges and retainOnDelete', async () => {
    reset();
    const r = await prog.run();
    assert.equal(r.ok, true, r.error);
    const c = calls().filter((x) => /^(create|delete|update)/.test(x));
    // a: create-before-delete (new a created first, old a deleted at the end)
    assert.ok(c.indexOf('create a') < c.lastIndexOf('delete a'), c.join(','));
    // b: delete-before-replace (the provider's deleteBeforeReplace)
    assert.ok(c.indexOf('delete b') < c.indexOf('create b'), c.join(','));
    // c removed: deleted; keep removed: retained (never deleted); ig: tag ignored (no update)
    assert.ok(c.includes('delete c'));
    assert.ok(!c.includes('delete keep'));
    assert.ok(!c.some((x) => x.endsWith(' ig')));
    assert.deepEqual([...new Set(steps(r.events).filter((s) => s.startsWith('same')))].sort(), [
      'same grp',
      'same ig',
      'same p',
      'same s',
    ]);
    const ids = Object.keys(cloudState());
    assert.equal(ids.filter((id) => id.startsWith('fake-keep')).length, 1, 'the retained resource stays in the cloud');
    assert.equal(ids.filter((id) => id.startsWith('fake-c-')).length, 0);
    assert.equal(ids.filter((id) => id.startsWith('fake-a-')).length, 1, 'no orphan of a');
    const urns = JSON.parse(stateText()).checkpoint.latest.resources.map((x: { urn: string }) =>
      x.urn.split('::').pop(),
    );
    assert.ok(!urns.includes('keep') && !urns.includes('c'));
    // b was deleted, marked pendingReplacement, then replaced: no mark is left.
    assert.ok(!stateText().includes('pendingReplacement'));
    // Pulumi's Step.Logical on the events: a removed resource's delete is logical, a
    // replacement's create and delete are not; the run's last event is a cancelEvent.
    const logical = new Map<string, boolean>(
      r.events.flatMap((e) =>
        e.resOutputsEvent
          ? [
              [
                `${e.resOutputsEvent.metadata.op} ${urnName(e.resOutputsEvent.metadata.urn)}`,
                e.resOutputsEvent.metadata.logical === true,
              ] as const,
            ]
          : [],
      ),
    );
    assert.deepEqual(
      ['delete c', 'replace a', 'create-replacement a', 'delete-replaced a'].map((k) => [k, logical.get(k)]),
      [
        ['delete c', true],
        ['replace a', true],
        ['create-replacement a', false],
        ['delete-replaced a', false],
      ],
    );
    assert.ok(r.events.at(-1)!.cancelEvent);
  });

  it('refuses to delete a protected resource', async () => {
    prog.write(header + stage2.replace("new Thing('p', { size: 1 }, { protect: true });", ''));
    const r = await prog.run();
    assert.equal(r.ok, false);
    assert.ok(r.events.at(-1)!.cancelEvent, 'a failed run ends with a cancelEvent too');
    assert.match(r.error!, /protect/);
    assert.ok(Object.keys(cloudState()).some((id) => id.startsWith('fake-p-')));
  });

  it('records a partial failure and converges on the next run', async () => {
    prog.write(header + stage2 + `new Thing('f', { failInit: true });\n`);
    reset();
    let r = await prog.run();
    assert.equal(r.ok, false);
    assert.match(r.error!, /failed to initialise/);
    const f = JSON.parse(stateText()).checkpoint.latest.resources.find((x: { urn: string }) => x.urn.endsWith('::f'));
    assert.ok(f.id.startsWith('fake-f-'));
    assert.deepEqual(f.initErrors, ['failed to initialise']);
    // resOpFailedEvent as update.go reports it: partly failed (1), and the steps done before it (a
    // custom resource's when its outputs came, a component's at its registration).
    const at = r.events.findIndex((e) => e.resOpFailedEvent);
    const done = new Set(
      r.events
        .slice(0, at)
        .map(
          (e) =>
            e.resOutputsEvent?.metadata ??
            (e.resourcePreEvent?.metadata.new?.custom ? undefined : e.resourcePreEvent?.metadata),
        )
        .map((m) => m?.urn)
        .filter((urn) => urn && !urn.includes('::pulumi:providers:')),
    );
    assert.deepEqual([r.events[at].resOpFailedEvent!.status, r.events[at].resOpFailedEvent!.steps], [1, done.size]);
    prog.write(header + stage2 + `new Thing('f', { failInit: false });\n`);
    reset();
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.ok(calls().includes('update f'), calls().join(','));
    assert.equal(Object.keys(cloudState()).filter((id) => id.startsWith('fake-f-')).length, 1, 'no duplicate');
  });

  it('an update that fails partially keeps the old inputs with the new outputs, as Pulumi records it', async () => {
    prog.write(header + stage2 + `new Thing('f', { failInit: false, size: 1 });\n`);
    assert.equal((await prog.run()).ok, true);
    prog.write(header + stage2 + `new Thing('f', { failInit: true, size: 2 });\n`);
    reset();
    const r = await prog.run();
    assert.equal(r.ok, false);
    const f = JSON.parse(stateText()).checkpoint.latest.resources.find((x: { urn: string }) => x.urn.endsWith('::f'));
    assert.deepEqual([f.inputs.size, f.inputs.failInit], [1, false], 'the inputs of the last good update');
    assert.deepEqual([f.outputs.size, f.initErrors], [2, ['failed to initialise']], 'what the resource now is');
    // Declared as it was before: the init errors alone make the next run update it.
    prog.write(header + stage2 + `new Thing('f', { failInit: false, size: 1 });\n`);
    reset();
    assert.equal((await prog.run()).ok, true);
    assert.ok(calls().includes('update f'), calls().join(','));
  });

  it("reports a Check failure in Pulumi's words, naming the property, its value and the reason, with no step", async () => {
    prog.write(header + stage2 + `new Thing('bad', { bad: true });\n`);
    const r = await prog.run({ preview: true });
    assert.equal(r.ok, false);
    // step_generator.go issueCheckFailures: diag.GetResourcePropertyInvalidValueError.
    const message =
      "oci:Test/thing:Thing resource 'bad's property 'bad' value {true} has a problem: bad is not allowed";
    assert.equal(r.error, message);
    assert.deepEqual(diagnostics(r.events, 'error'), [message]);
    // The resource is invalid: no step for it, not even a failed one.
    assert.ok(!r.events.some((e) => e.resourcePreEvent?.metadata.urn.endsWith('::bad')));
    assert.ok(!r.events.some((e) => e.resOpFailedEvent));
  });

  it("reports a Check or Diff error as Pulumi's deployment executor does: a diagnostic on the resource, no step", async () => {
    prog.write(header + stage2 + `new Thing('odd', { size: 1 });\n`);
    assert.equal((await prog.run()).ok, true);
    for (const [props, message, line] of [
      ['{ checkThrows: true }', 'the provider could not check it', 'checking'],
      ['{ size: 2, diffThrows: true }', 'the provider could not diff it', 'diffing'],
    ]) {
      prog.write(header + stage2 + `new Thing('odd', ${props});\n`);
      for (const preview of [true, false]) {
        const r = await prog.run({ preview });
        assert.equal(r.ok, false);
        const urn = r.events.find((e) => e.diagnosticEvent?.severity === 'error')?.diagnosticEvent?.urn ?? '';
        assert.ok(urn.endsWith('::odd'), urn);
        assert.deepEqual(diagnostics(r.events, 'error'), [message]);
        assert.equal(r.error, `${urn}: ${line} failed: ${message}`);
        // No step for it, not even a failed one (so no "creating failed" row), and nothing counted.
        assert.ok(!r.events.some((e) => e.resourcePreEvent?.metadata.urn.endsWith('::odd')));
        assert.ok(!r.events.some((e) => e.resOpFailedEvent));
      }
    }
  });

  it('refreshes drift into the state without writing to the cloud, and the next up repairs it', async () => {
    prog.write(header + stage2 + `new Thing('f', { failInit: false, size: 5 });\n`);
    let r = await prog.run();
    assert.equal(r.ok, true, r.error);
    const s = cloudState();
    const fid = Object.keys(s).find((id) => id.startsWith('fake-f-'))!;
    s[fid].size = 6;
    writeFileSync(cloud, JSON.stringify(s));
    reset();
    r = await prog.run({ operation: 'refresh' });
    assert.equal(r.ok, true, r.error);
    assert.ok(!calls().some((c) => /^(create|update|delete)/.test(c)));
    assert.equal(r.changes.update, 1);
    // The fake's Diff answers "some changes" naming no key: --json's op is the step's result, the
    // update the summary counts (RefreshStep.ResultOp), not a same for want of diffs.
    const fEvent = r.events.find((e) => e.resOutputsEvent?.metadata.urn.endsWith('::f'))!;
    assert.deepEqual(fEvent.resOutputsEvent!.metadata.diffs ?? [], []);
    assert.equal(jsonEvent(fEvent, false, true)!.resOutputsEvent!.metadata.op, 'update');
    const f = JSON.parse(stateText()).checkpoint.latest.resources.find((x: { urn: string }) => x.urn.endsWith('::f'));
    assert.equal(f.outputs.size, 6);
    r = await prog.run({ preview: true });
    assert.deepEqual(
      steps(r.events).filter((x) => x.startsWith('update')),
      ['update f'],
    );
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.equal(cloudState()[fid].size, 5);
  });

  it("up --refresh counts none of its refresh steps, as Pulumi's: only the program's steps", async () => {
    prog.write(header + stage2 + `new Thing('r', { size: 5 });\n`);
    let r = await prog.run();
    assert.equal(r.ok, true, r.error);
    const id = Object.keys(cloudState()).find((x) => x.startsWith('fake-r-'))!;
    const drift = (change: Record<string, unknown>) => {
      const s = cloudState();
      Object.assign(s[id], change);
      writeFileSync(cloud, JSON.stringify(s));
    };
    // Outputs alone changed (the provider's Diff ignores `state`): read, not counted, nothing to do.
    drift({ state: 'UPDATING' });
    for (const preview of [true, false]) {
      r = await prog.run({ refresh: true, preview });
      assert.equal(r.ok, true, r.error);
      assert.deepEqual(Object.keys(r.changes), ['same']);
    }
    // An input changed outside: the program's update repairs it, and only that is counted.
    drift({ size: 6 });
    r = await prog.run({ refresh: true });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(Object.keys(r.changes).sort(), ['same', 'update']);
    assert.equal(r.changes.update, 1);
    assert.equal(cloudState()[id].size, 5);
  });

  it('a refresh that finds a resource gone drops what the others recorded of it, as Pulumi rebuilds its base state', async () => {
    prog.write(
      header +
        `new Thing('p', { size: 1 }, { protect: true });
const g = new Thing('g', { size: 1 });
new Thing('h', { ref: g.id });
new Thing('i', { size: 1 }, { dependsOn: [g] });
new Thing('j', { size: 1 }, { deletedWith: g });
new Thing('k', { size: 1 }, { parent: g });
`,
    );
    let r = await prog.run();
    assert.equal(r.ok, true, r.error);
    const s = cloudState();
    delete s[Object.keys(s).find((id) => id.startsWith('fake-g-'))!];
    writeFileSync(cloud, JSON.stringify(s));
    r = await prog.run({ operation: 'refresh' });
    assert.equal(r.ok, true, r.error);
    // --json: a delete with no diff, as Pulumi's RefreshStep of a resource gone (no Diff asked).
    const gone = r.events.find((e) => e.resOutputsEvent?.metadata.urn.endsWith('::g'))!;
    const goneJson = jsonEvent(gone, false, true)!.resOutputsEvent!.metadata;
    assert.deepEqual([goneJson.op, goneJson.diffs, goneJson.detailedDiff], ['delete', undefined, null]);
    const resources = JSON.parse(stateText()).checkpoint.latest.resources as Array<Record<string, unknown>>;
    const byName = (n: string) => resources.find((x) => String(x.urn).endsWith(`::${n}`))!;
    assert.equal(
      resources.some((x) => String(x.urn).endsWith('::g')),
      false,
    );
    const gUrn = 'urn:pulumi:dev::enginetest::oci:Test/thing:Thing::g';
    assert.ok(!stateText().includes(`"${gUrn}"`), 'nothing refers to g');
    assert.deepEqual(byName('h').propertyDependencies, { ref: [] });
    assert.equal(byName('j').deletedWith, undefined);
    assert.match(String(byName('k').parent), /::pulumi:pulumi:Stack::/);
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
  });

  it('reads an existing resource with get (also in preview), never deleting it', async () => {
    // Imports are covered with the real plugin (oci-program.test.ts): the Node SDK's built-in
    // provider server this fake uses cannot serve a Read without properties.
    writeFileSync(cloud, JSON.stringify({ ...cloudState(), 'ext-2': { size: 3, state: 'ACTIVE' } }));
    const src = header + stage2 + `new Thing('f', { failInit: false, size: 5 });\n`;
    prog.write(src + `export const got = Thing.get('got', 'ext-2').size;\n`);
    let r = await prog.run({ preview: true });
    assert.equal(r.ok, true, r.error);
    assert.equal(r.outputs.got, 3);
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.ok(steps(r.events).includes('read got'));
    assert.equal(r.outputs.got, 3);
    // Changed outside and refreshed: an update (its outputs differ), with no diff in --json, as
    // Pulumi's RefreshStep of an external resource (ResultOp compares outputs; no Diff is asked).
    writeFileSync(cloud, JSON.stringify({ ...cloudState(), 'ext-2': { size: 4, state: 'ACTIVE' } }));
    r = await prog.run({ operation: 'refresh' });
    assert.equal(r.ok, true, r.error);
    const got = r.events.find((e) => e.resOutputsEvent?.metadata.urn.endsWith('::got'))!;
    const gotJson = jsonEvent(got, false, true)!.resOutputsEvent!.metadata;
    assert.deepEqual([gotJson.op, gotJson.diffs, gotJson.detailedDiff], ['update', undefined, null]);
    // In a preview where its id is known only after the update, the read is planned and what
    // the state holds for it stays (Pulumi's ReadStep does nothing then): no discard.
    prog.write(
      src +
        `export const got = new Thing('got', { size: undefined }, { id: new Thing('first', { size: 1 }).id.apply(() => 'ext-2') }).size;\n`,
    );
    r = await prog.run({ preview: true });
    assert.equal(r.ok, true, r.error);
    assert.ok(steps(r.events).includes('read got'), steps(r.events).join(', '));
    assert.ok(!steps(r.events).some((step) => /^(discard|delete) got$/.test(step)), steps(r.events).join(', '));
    prog.write(src);
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.ok(cloudState()['ext-2'], 'a resource read with get is never deleted');
  });

  it('runs independent resources in parallel, and one at a time with parallel 1', async () => {
    const src = header + stage2 + `new Thing('x1', { sleepMs: 300 });\nnew Thing('x2', { sleepMs: 300 });\n`;
    const order = () => calls().filter((c) => /^(begin|create) x/.test(c));
    prog.write(src);
    reset();
    let r = await prog.run({ parallel: 4 });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(
      order()
        .slice(0, 2)
        .map((c) => c.split(' ')[0]),
      ['begin', 'begin'],
      order().join(','),
    );
    prog.write(src.replace(/x([12])/g, 'y$1'));
    reset();
    r = await prog.run({ parallel: 1 });
    assert.equal(r.ok, true, r.error);
    const seq = calls()
      .filter((c) => /^(begin|create) y/.test(c))
      .map((c) => c.split(' ')[0]);
    assert.deepEqual(seq, ['begin', 'create', 'begin', 'create']);
    // --parallel bounds provider operations, not Check (Pulumi's step generator runs it outside
    // the step executor): y2 is checked while y1's create holds the only slot.
    const raw = readFileSync(log, 'utf8').split('\n');
    const checkY2 = raw.findIndex((c) => c.startsWith('check y2'));
    assert.ok(checkY2 >= 0 && checkY2 < raw.indexOf('create y1'), raw.join(','));
  });

  it('refuses a second run on a locked stack with a clear message', async () => {
    const other = openStackState({ programDir: prog.dir, stack: 'dev' });
    other.lock();
    try {
      const r = await prog.run();
      assert.equal(r.ok, false);
      assert.match(r.error!, /locked/);
    } finally {
      other.unlock();
    }
  });

  it('destroys in reverse dependency order, keeping retained resources', async () => {
    prog.write(header + stage2.replace('{ protect: true }', '{}'));
    let r = await prog.run();
    assert.equal(r.ok, true, r.error);
    reset();
    r = await prog.run({ operation: 'destroy' });
    assert.equal(r.ok, true, r.error);
    const c = calls();
    assert.ok(c.indexOf('delete b') < c.indexOf('delete a'), c.join(','));
    // Nothing left, no list (DeploymentV3 `resources,omitempty`).
    assert.equal(JSON.parse(stateText()).checkpoint.latest.resources, undefined);
    void diagnostics;
  });
});
