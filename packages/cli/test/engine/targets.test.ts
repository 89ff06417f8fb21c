// --target, --target-dependents and --exclude in the engine (Pulumi's step_generator.go and
// deployment_executor.go rules), against the fake provider plugin: real programs through their own
// cmd/run, real gRPC, real state files; the fake provider's call log shows what reached the cloud.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { diagnostics, fakeProviderFiles, makeProgram, steps, type TestProgram } from './support/harness';

const fake = [resolve(__dirname, 'support/fake-provider.ts')];

const header = `import * as pulumi from '@pulumi/pulumi';
class Thing extends pulumi.CustomResource {
  declare readonly size: pulumi.Output<number>;
  constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    super('oci:Test/thing:Thing', name, args, opts);
  }
}
`;

/** a ← b (b's `ref` is a's id), c alone; every size `n`. */
const three = (n: number, extra = '') => `${header}
const a = new Thing('a', { size: ${n} });
const b = new Thing('b', { size: ${n}, ref: a.id });
const c = new Thing('c', { size: ${n} });
export const sizes = pulumi.all([a.size, b.size, c.size]);
${extra}`;

const urn = (name: string) => `urn:pulumi:dev::enginetest::oci:Test/thing:Thing::${name}`;

describe('resource targeting (fake provider)', () => {
  let prog: TestProgram;
  let files: ReturnType<typeof fakeProviderFiles>;
  const sizes = () =>
    Object.fromEntries(
      prog
        .resources()
        .filter((r) => r.urn.includes('Thing::'))
        .map((r) => [r.urn.split('::').pop(), r.inputs.size]),
    );
  // What reached the provider's resource operations (its DiffConfig calls aside).
  const calls = () => files.calls().filter((c) => !c.startsWith('diffConfig'));
  before(() => {
    prog = makeProgram(three(1), { pluginCommand: fake });
    files = fakeProviderFiles(prog.dir);
    files.reset();
  });
  after(() => prog.remove());

  it('up --target updates only the target; the others keep their old state and outputs, and the next up converges', async () => {
    assert.equal((await prog.run()).ok, true);
    const bBefore = prog.resources().find((x) => x.urn === urn('b'))!;
    prog.write(three(2));
    files.reset();
    const r = await prog.run({ targets: [urn('c')] });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(calls(), ['diff c', 'update c']);
    assert.deepEqual(sizes(), { a: 1, b: 1, c: 2 });
    // The untargeted resources' old outputs reach the program.
    assert.deepEqual(r.outputs.sizes, [1, 1, 2]);
    assert.deepEqual(
      prog.resources().find((x) => x.urn === urn('b')),
      bBefore,
    );

    files.reset();
    const all = await prog.run();
    assert.equal(all.ok, true, all.error);
    assert.deepEqual(
      files
        .calls()
        .filter((c) => c.startsWith('update'))
        .sort(),
      ['update a', 'update b'],
    );
    assert.deepEqual(sizes(), { a: 2, b: 2, c: 2 });
  });

  it('--target-dependents widens a target to what depends on it; --exclude leaves one out', async () => {
    prog.write(three(3));
    files.reset();
    const r = await prog.run({ targets: [urn('a')], targetDependents: true });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(sizes(), { a: 3, b: 3, c: 2 });

    prog.write(three(4));
    const x = await prog.run({ excludes: [urn('b')] });
    assert.equal(x.ok, true, x.error);
    assert.deepEqual(sizes(), { a: 4, b: 3, c: 4 });
    const xd = await prog.run({ excludes: [urn('a')], excludeDependents: true });
    assert.equal(xd.ok, true, xd.error);
    assert.deepEqual(sizes(), { a: 4, b: 3, c: 4 });
  });

  it('refuses to create an untargeted resource a targeted one depends on (preview reports them, up stops)', async () => {
    const extra = `const d = new Thing('d', { size: 1 });
new Thing('e', { size: 1, ref: d.id });
new Thing('f', { size: 1 }, { dependsOn: [d] });`;
    prog.write(three(4, extra));
    const message = `Resource '${urn('e')}' depends on '${urn('d')}' which was was not specified in --target list.`;
    const preview = await prog.run({ preview: true, targets: [urn('e'), urn('f')] });
    assert.equal(preview.ok, false);
    // A preview reports each skipped dependency once (whichever dependent reaches it first), goes
    // on to its end, then says `preview failed` under the stack (deployment_executor.go Execute:
    // reportExecResult("failed") once ex.stepGen.Errored()).
    const errors = diagnostics(preview.events, 'error');
    assert.equal(errors.length, 2, errors.join('\n'));
    assert.match(errors[0], /^Resource '.*::[ef]' depends on '.*::d' which was was not specified in --target list\.$/);
    assert.equal(errors[1], 'preview failed');
    assert.equal(preview.error, errors[0]);
    files.reset();
    const up = await prog.run({ targets: [urn('e')] });
    assert.equal(up.ok, false);
    assert.equal(up.error, message);
    // An update bails at the first (validateSteps: result.BailErrorf), before `update failed`.
    assert.deepEqual(diagnostics(up.events, 'error'), [message]);
    assert.deepEqual(calls(), []);
    assert.equal(
      prog.resources().some((r) => r.urn === urn('d') || r.urn === urn('e')),
      false,
    );

    // Targeting the dependency creates it alone: the untargeted ones are skipped, not recorded.
    const d = await prog.run({ targets: [urn('d')] });
    assert.equal(d.ok, true, d.error);
    assert.deepEqual(calls(), ['create d']);
    assert.deepEqual(Object.keys(sizes()).sort(), ['a', 'b', 'c', 'd']);
    assert.deepEqual(
      steps(d.events).filter((s) => s.startsWith('create')),
      ['create d'],
    );
  });

  it('deletes a resource removed from the program only when it is targeted', async () => {
    prog.write(three(4).replace("const c = new Thing('c', { size: 4 });", '').replace('c.size', 'a.size'));
    files.reset();
    const r = await prog.run({ targets: [urn('a')] });
    assert.equal(r.ok, true, r.error);
    assert.equal(
      calls().some((c) => c.startsWith('delete')),
      false,
    );
    assert.ok(prog.resources().some((x) => x.urn === urn('c')));
    const del = await prog.run({ targets: [urn('c')] });
    assert.equal(del.ok, true, del.error);
    assert.deepEqual(
      calls().filter((c) => c.startsWith('delete')),
      ['delete c'],
    );
    assert.equal(
      prog.resources().some((x) => x.urn === urn('c')),
      false,
    );
  });

  it('fails on a target that names nothing in the stack, with Pulumi message', async () => {
    const r = await prog.run({ operation: 'refresh', targets: [urn('nope')] });
    assert.equal(r.ok, false);
    assert.equal(
      r.error,
      `Target '${urn('nope')}' could not be found in the stack. Did you forget to escape $ in your shell?`,
    );
  });

  it('destroy --target refuses a target others depend on unless --target-dependents, and deletes only the targets', async () => {
    files.reset();
    const refused = await prog.run({ operation: 'destroy', targets: [urn('a')] });
    assert.equal(refused.ok, false);
    assert.match(
      refused.error!,
      new RegExp(
        `^Resource '${urn('b').replace(/[$]/g, '\\$')}' will be destroyed but was not specified in --target list\\. Either include resource in --target list or pass --target-dependents to proceed\\.$`,
      ),
    );
    assert.deepEqual(
      calls().filter((c) => c.startsWith('delete')),
      [],
    );
    // Reported under the resource it names (Pulumi's diagnostic 2014 carries its URN); the
    // deployment executor then ends the run with `update failed` under the stack, as Pulumi's does
    // after GenerateDeletes' refusal (a destroy too).
    assert.deepEqual(
      refused.events
        .filter((e) => e.diagnosticEvent?.severity === 'error')
        .map((e) => [e.diagnosticEvent!.urn, e.diagnosticEvent!.message.split('\n')[0].slice(0, 14)]),
      [
        [urn('b'), "Resource 'urn:"],
        [undefined, 'update failed'],
      ],
    );

    const ok = await prog.run({ operation: 'destroy', targets: [urn('a')], targetDependents: true });
    assert.equal(ok.ok, true, ok.error);
    assert.deepEqual(
      files
        .calls()
        .filter((c) => c.startsWith('delete'))
        .sort(),
      ['delete a', 'delete b'],
    );
    // The stack, its default provider and the untargeted resource stay.
    const left = prog.resources().map((r) => r.urn.split('::').slice(2).join('::'));
    assert.ok(left.includes('pulumi:pulumi:Stack::enginetest-dev'), left.join(' '));
    assert.ok(left.includes('oci:Test/thing:Thing::d'), left.join(' '));
    assert.equal(left.filter((u) => u.startsWith('oci:Test/thing:Thing::')).length, 1);
  });

  it('refresh reads only the targets (and their dependents with --target-dependents), or all but the excluded', async () => {
    prog.write(three(5));
    assert.equal((await prog.run()).ok, true);
    const drift = () => {
      const cloud = files.cloudState();
      for (const r of Object.values(cloud)) r.size = 99;
      writeFileSync(files.cloud, JSON.stringify(cloud));
    };
    drift();
    const t = await prog.run({ operation: 'refresh', targets: [urn('a')], targetDependents: true });
    assert.equal(t.ok, true, t.error);
    assert.deepEqual(sizes(), { a: 99, b: 99, c: 5 });

    assert.equal((await prog.run()).ok, true);
    drift();
    const x = await prog.run({ operation: 'refresh', excludes: [urn('a')], excludeDependents: true });
    assert.equal(x.ok, true, x.error);
    assert.deepEqual(sizes(), { a: 5, b: 5, c: 99 });
  });

  it('destroy --exclude keeps the excluded resource and what it needs', async () => {
    files.reset();
    const r = await prog.run({ operation: 'destroy', excludes: [urn('b')] });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(
      calls().filter((c) => c.startsWith('delete')),
      ['delete c'],
    );
    assert.deepEqual(Object.keys(sizes()).sort(), ['a', 'b']);
  });

  // deploymentExecutor.Execute (pkg/resource/deploy/deployment_executor.go) checks its Targets
  // (checkTargets before performDeletes, its error returned after them), never its Excludes.
  it('destroy: an unknown --target fails the run after the deletes it allows; an unknown --exclude is ignored', async () => {
    files.reset();
    const t = await prog.run({ operation: 'destroy', targets: [urn('b'), urn('nope')] });
    assert.equal(t.ok, false);
    assert.match(t.error ?? '', /^Target '.*::nope' could not be found in the stack/);
    assert.deepEqual(
      calls().filter((c) => c.startsWith('delete')),
      ['delete b'],
    );
    const x = await prog.run({ operation: 'destroy', excludes: [urn('nope')] });
    assert.equal(x.ok, true, x.error);
    assert.deepEqual(sizes(), {});
  });

  it('a component targeted with --target-dependents brings its children; untargeted, it keeps its old state', async () => {
    const grouped = (n: number) => `${header}
class Group extends pulumi.ComponentResource {
  constructor(name: string, size: number) {
    super('test:index:Group', name, { size });
    new Thing(name + '-k', { size }, { parent: this });
    this.registerOutputs({ size });
  }
}
new Group('grp', ${n});
`;
    prog.write(grouped(1));
    assert.equal((await prog.run()).ok, true);
    const group = 'urn:pulumi:dev::enginetest::test:index:Group::grp';
    const child = 'urn:pulumi:dev::enginetest::test:index:Group$oci:Test/thing:Thing::grp-k';
    const state = (u: string) => prog.resources().find((r) => r.urn === u)!;
    prog.write(grouped(2));
    const alone = await prog.run({ targets: [child] });
    assert.equal(alone.ok, true, alone.error);
    assert.equal(state(child).inputs.size, 2);
    assert.deepEqual(state(group).inputs, { size: 1 });

    prog.write(grouped(3));
    const widened = await prog.run({ targets: [group], targetDependents: true });
    assert.equal(widened.ok, true, widened.error);
    assert.deepEqual(state(group).inputs, { size: 3 });
    assert.equal(state(child).inputs.size, 3);
  });
});
