// Transforms (the `transforms` option, registerResourceTransform, registerInvokeTransform): real
// programs through their own cmd/run, whose callback servers the engine calls as Pulumi's
// resource monitor does, against the small provider plugin in support/fake-provider.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fakeProviderSuite, steps } from './support/harness';

// `trail` records which transforms ran, in order; `mark(label)` is a transform that appends to it.
const header = `import * as pulumi from '@pulumi/pulumi';
class Thing extends pulumi.CustomResource {
  declare readonly size: pulumi.Output<number>;
  constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    super('oci:Test/thing:Thing', name, { ...args, state: undefined }, opts);
  }
}
class Group extends pulumi.ComponentResource {
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super('test:index:Group', name, {}, opts);
  }
}
const mark = (label: string): pulumi.ResourceTransform => ({ props, opts }) => ({
  props: { ...props, trail: [...((props.trail as string[]) ?? []), label] },
  opts,
});
`;

describe('transforms (fake provider)', () => {
  const suite = fakeProviderSuite(header);
  const { run, cloud } = suite;
  const named = (name: string) => suite.prog.resources().find((r) => r.urn.endsWith(`::${name}`))!;

  it("runs a resource's own transforms, then its ancestors', then the stack's, on properties and options", async () => {
    const source = `
pulumi.runtime.registerResourceTransform(mark('stack'));
const outer = new Group('outer', { transforms: [mark('outer')] });
const inner = new Group('inner', { parent: outer, transforms: [mark('inner')] });
new Thing('leaf', { size: 1 }, { parent: inner, transforms: [mark('own1'), mark('own2')] });
new Thing('guarded', { size: 1 }, {
  transforms: [({ props, opts }) => ({ props, opts: { ...opts, protect: true, ignoreChanges: ['size'] } })],
});
`;
    let r = await run(source);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(cloud('leaf')!.trail, ['own1', 'own2', 'inner', 'outer', 'stack']);
    assert.deepEqual(named('leaf').inputs.trail, ['own1', 'own2', 'inner', 'outer', 'stack']);
    // A component is transformed too: its own, its ancestors', the stack's.
    assert.deepEqual(named('inner').inputs.trail, ['inner', 'outer', 'stack']);
    assert.equal(named('guarded').protect, true);
    assert.deepEqual(cloud('guarded')!.trail, ['stack']);

    // The options a transform set take effect: a change of size is ignored, and the same program
    // changes nothing the second time.
    r = await run(source.replace("new Thing('guarded', { size: 1 }", "new Thing('guarded', { size: 5 }"));
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(
      steps(r.events).filter((s) => !s.startsWith('same')),
      [],
    );
    assert.deepEqual(
      suite.files.calls().filter((c) => /^(create|update|delete)/.test(c)),
      [],
    );
    assert.equal(cloud('guarded')!.size, 1);
  });

  it("re-reads a resource's dependencies from what its own transform returns", async () => {
    const r = await run(`
const a = new Thing('a', { size: 1 });
const b = new Thing('b', { size: 1 });
new Thing('c', { ref: a.id }, { dependsOn: [b], transforms: [({ props, opts }) => ({ props, opts: { ...opts, dependsOn: [a] } })] });
`);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(named('c').dependencies, [named('a').urn]);
  });

  it("applies the stack's invoke transforms to an invoke's arguments", async () => {
    const r = await run(`
pulumi.runtime.registerInvokeTransform(({ token, args, opts }) => ({ args: { ...args, added: token }, opts }));
export const echoed = pulumi.runtime.invokeOutput('oci:Test/echo:echo', { given: 1 }).apply((o) => o.echoed);
`);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(r.outputs.echoed, { given: 1, added: 'oci:Test/echo:echo' });
  });

  it('a transform that throws fails the update in one line that names the resource', async () => {
    const r = await run(`
new Thing('ok', { size: 1 });
new Thing('bad', { size: 1 }, { transforms: [() => { throw new Error('no thanks'); }] });
`);
    assert.equal(r.ok, false);
    assert.match(
      r.error!,
      /^urn:pulumi:dev::enginetest::oci:Test\/thing:Thing::bad: transform failed: Error: no thanks$/,
    );
    assert.equal(cloud('bad'), undefined, 'nothing was created for it');
  });
});
