// Resource hooks (the `hooks` option, `new pulumi.ResourceHook`, plain functions as hooks): real
// programs through their own cmd/run, whose callback servers the engine calls around the steps
// as Pulumi's engine does, against the small provider plugin in support/fake-provider.ts. The
// hooks append to the fake provider's call log, so one log shows hooks and provider calls in
// the order they happened.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diagnostics, fakeProviderSuite, steps } from './support/harness';

// `all()` binds a logging hook of every kind (registered once); `recorded` hooks also write what they receive to
// args.jsonl (one line per call).
const header = `import * as pulumi from '@pulumi/pulumi';
import { appendFileSync } from 'fs';
class Thing extends pulumi.CustomResource {
  constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    super('oci:Test/thing:Thing', name, { ...args, state: undefined }, opts);
  }
}
class Group extends pulumi.ComponentResource {
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super('test:index:Group', name, {}, opts);
    this.registerOutputs({ done: true });
  }
}
const log = (line: string) => appendFileSync(process.env.FAKE_PROVIDER_LOG!, line + '\\n');
const hook = (kind: string, opts?: pulumi.ResourceHookOptions) =>
  new pulumi.ResourceHook(kind, (a) => {
    log(\`hook \${kind} \${a.name}\`);
    appendFileSync('args.jsonl', JSON.stringify({ kind, ...a }) + '\\n');
  }, opts);
let bound: pulumi.ResourceHookBinding | undefined;
const all = () =>
  (bound ??= {
    beforeCreate: [hook('beforeCreate')],
    afterCreate: [hook('afterCreate')],
    beforeUpdate: [hook('beforeUpdate')],
    afterUpdate: [hook('afterUpdate')],
    beforeDelete: [hook('beforeDelete')],
    afterDelete: [hook('afterDelete')],
  });
`;

describe('resource hooks (fake provider)', () => {
  const suite = fakeProviderSuite(header);
  const { run, cloud } = suite;
  const named = (name: string) => suite.prog.resources().find((r) => r.urn.endsWith(`::${name}`));
  /** Hook calls and provider operations, in order. */
  const trail = () => suite.files.calls().filter((c) => /^(hook|create|update|delete) /.test(c));
  const args = (): Array<Record<string, unknown>> => {
    const f = join(suite.prog.dir, 'args.jsonl');
    return existsSync(f)
      ? readFileSync(f, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [];
  };

  it('runs before and after hooks around create, update and the delete of a removed resource, with what Pulumi passes them', async () => {
    let r = await run(`new Thing('a', { size: 1 }, { hooks: all() });`);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(trail(), ['hook beforeCreate a', 'create a', 'hook afterCreate a']);
    const id = named('a')!.id!;
    const urn = named('a')!.urn;
    // The binding is kept in the state, so the delete hooks are known once the program drops it.
    assert.deepEqual((named('a') as unknown as { resourceHooks: unknown }).resourceHooks, {
      before_create: ['beforeCreate'],
      after_create: ['afterCreate'],
      before_update: ['beforeUpdate'],
      after_update: ['afterUpdate'],
      before_delete: ['beforeDelete'],
      after_delete: ['afterDelete'],
    });
    // As Pulumi writes a state with resource hooks (ApplyFeatures): version 4, needing `hooks`.
    const versioned = () => {
      const file = JSON.parse(readFileSync(join(suite.prog.dir, '.ocikit/stacks/dev.json'), 'utf8'));
      return { version: file.version, features: file.features };
    };
    assert.deepEqual(versioned(), { version: 4, features: ['hooks'] });

    r = await run(`new Thing('a', { size: 2 }, { hooks: all() });`);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(trail(), ['hook beforeUpdate a', 'update a', 'hook afterUpdate a']);

    // Removed from the program, its hooks still registered: they run around its delete.
    r = await run(`all();`);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(trail(), ['hook beforeDelete a', 'delete a', 'hook afterDelete a']);
    assert.equal(named('a'), undefined);
    assert.deepEqual(versioned(), { version: 3, features: undefined }, 'no resource has hooks now');

    // What each hook received (ResourceHookArgs): urn, id, name, type, and the inputs and outputs
    // Pulumi's table gives each kind.
    const seen = Object.fromEntries(args().map((a) => [a.kind, a]));
    const common = { urn, name: 'a', type: 'oci:Test/thing:Thing' };
    const state = (size: number) => ({ size, state: 'ACTIVE' });
    assert.deepEqual(seen.beforeCreate, { kind: 'beforeCreate', ...common, id: '', newInputs: { size: 1 } });
    assert.deepEqual(seen.afterCreate, {
      kind: 'afterCreate',
      ...common,
      id,
      newInputs: { size: 1 },
      newOutputs: state(1),
    });
    assert.deepEqual(seen.beforeUpdate, {
      kind: 'beforeUpdate',
      ...common,
      id,
      newInputs: { size: 2 },
      oldInputs: { size: 1 },
      oldOutputs: state(1),
    });
    assert.deepEqual(seen.afterUpdate, {
      kind: 'afterUpdate',
      ...common,
      id,
      newInputs: { size: 2 },
      oldInputs: { size: 1 },
      newOutputs: state(2),
      oldOutputs: state(1),
    });
    for (const kind of ['beforeDelete', 'afterDelete'])
      assert.deepEqual(seen[kind], { kind, ...common, id, oldInputs: { size: 2 }, oldOutputs: state(2) });
  });

  it("runs a replacement's create hooks and its delete hooks, in the replacement's order", async () => {
    let r = await run(`new Thing('a', { replaceMe: 1 }, { hooks: all() });`);
    assert.equal(r.ok, true, r.error);
    // Create-before-delete: the new copy is created, the old one deleted at the end.
    r = await run(`new Thing('a', { replaceMe: 2 }, { hooks: all() });`);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(trail(), [
      'hook beforeCreate a',
      'create a',
      'hook afterCreate a',
      'hook beforeDelete a',
      'delete a',
      'hook afterDelete a',
    ]);
    // Delete-before-replace (the provider asks for it when `dbr` changes).
    r = await run(`new Thing('a', { replaceMe: 2, dbr: 1 }, { hooks: all() });`);
    assert.equal(r.ok, true, r.error);
    r = await run(`new Thing('a', { replaceMe: 2, dbr: 2 }, { hooks: all() });`);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(trail(), [
      'hook beforeDelete a',
      'delete a',
      'hook afterDelete a',
      'hook beforeCreate a',
      'create a',
      'hook afterCreate a',
    ]);
    assert.equal(Object.keys(suite.files.cloudState()).length, 1);
  });

  it("runs a component's before hooks at its registration and its after hooks with its outputs; transforms may bind hooks", async () => {
    const r = await run(`
const fromTransform = hook('fromTransform');
pulumi.runtime.registerResourceTransform(({ type, props, opts }) =>
  type === 'oci:Test/thing:Thing' ? { props, opts: { ...opts, hooks: { beforeCreate: [fromTransform] } } } : undefined,
);
const g = new Group('g', { hooks: { beforeCreate: [hook('beforeCreate')], afterCreate: [hook('afterCreate')] } });
new Thing('child', { size: 1 }, { parent: g });
`);
    assert.equal(r.ok, true, r.error);
    // The child's create and the component's outputs race; the component's before hook comes first.
    const t = trail();
    assert.equal(t[0], 'hook beforeCreate g');
    assert.deepEqual([...t].sort(), [
      'create child',
      'hook afterCreate g',
      'hook beforeCreate g',
      'hook fromTransform child',
    ]);
    assert.ok(t.indexOf('hook fromTransform child') < t.indexOf('create child'));
    const afterCreate = args().find((a) => a.kind === 'afterCreate')!;
    assert.deepEqual(afterCreate.newOutputs, { done: true });
  });

  it('a failing before hook fails the step in one line; the provider is not called and nothing changes', async () => {
    const refuse = `const refuse = new pulumi.ResourceHook('refuse', () => { throw new Error('not today'); });\n`;
    let r = await run(refuse + `new Thing('a', { size: 1 }, { hooks: { beforeCreate: [refuse] } });`);
    assert.equal(r.ok, false);
    assert.equal(
      r.error,
      'urn:pulumi:dev::enginetest::oci:Test/thing:Thing::a: before hook "refuse" failed: not today',
    );
    assert.equal(cloud('a'), undefined);
    assert.equal(named('a'), undefined);
    assert.deepEqual(trail(), []);

    r = await run(`new Thing('a', { size: 1 });`);
    assert.equal(r.ok, true, r.error);
    // A plain function is a hook too (the SDK names it after the resource).
    r = await run(`new Thing('a', { size: 2 }, { hooks: { beforeUpdate: [() => { throw new Error('frozen'); }] } });`);
    assert.equal(r.ok, false);
    assert.match(r.error!, /::a: before hook "oci:Test\/thing:Thing_a_beforeUpdate_0" failed: frozen$/);
    assert.equal(cloud('a')!.size, 1);
    assert.deepEqual(named('a')!.inputs, { size: 1 });
    assert.deepEqual(trail(), []);
  });

  it('a failing after hook fails the run once the operation is recorded; with ignoreErrors it is a warning', async () => {
    const broken = `const broken = new pulumi.ResourceHook('broken', () => { throw new Error('lost the receipt'); });\n`;
    let r = await run(broken + `new Thing('a', { size: 1 }, { hooks: { afterCreate: [broken] } });`);
    assert.equal(r.ok, false);
    assert.match(r.error!, /::a: after hook "broken" failed: lost the receipt$/);
    // Created and recorded: the next run sees it, nothing is created twice.
    assert.ok(cloud('a'));
    assert.equal(named('a')!.id, Object.keys(suite.files.cloudState())[0]);
    r = await run(`new Thing('a', { size: 1 });`);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(steps(r.events), ['same a']);

    const lenient = `const lenient = new pulumi.ResourceHook('lenient', () => { throw new Error('best effort'); }, { ignoreErrors: true });\n`;
    r = await run(
      lenient + `new Thing('a', { size: 2 }, { hooks: { beforeUpdate: [lenient], afterUpdate: [lenient] } });`,
    );
    assert.equal(r.ok, true, r.error);
    assert.equal(cloud('a')!.size, 2);
    assert.deepEqual(
      diagnostics(r.events, 'warning').filter((d) => d.includes('hook')),
      ['before hook "lenient" failed: best effort', 'after hook "lenient" failed: best effort'],
    );
  });

  it('a preview runs only the hooks registered with onDryRun', async () => {
    const source = `
const dry = new pulumi.ResourceHook('dry', (a) => log('hook dry ' + a.name), { onDryRun: true });
new Thing('a', { size: 1 }, { hooks: { beforeCreate: [dry, hook('beforeCreate')], afterCreate: [dry] } });
`;
    const r = await run(source, { preview: true });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(trail(), ['hook dry a', 'hook dry a']);
    assert.equal(cloud('a'), undefined);
  });

  it('a delete hook the program no longer registers fails the delete; destroy refuses a stack with delete hooks', async () => {
    let r = await run(`new Thing('a', { size: 1 }, { hooks: { beforeDelete: [hook('beforeDelete')] } });`);
    assert.equal(r.ok, true, r.error);

    r = await run(`new Thing('a', { size: 1 }, { hooks: { beforeDelete: [hook('beforeDelete')] } });`, {
      operation: 'destroy',
    });
    assert.equal(r.ok, false);
    assert.match(
      r.error!,
      /::a has delete hooks, which need the program to run .*remove the resources from the program and run up, then destroy$/,
    );
    assert.ok(cloud('a'));

    r = await run(`export const nothing = 1;`);
    assert.equal(r.ok, false);
    assert.match(r.error!, /::a: hook "beforeDelete" was not registered$/);
    assert.ok(cloud('a'));
    assert.ok(named('a'));
  });

  it('error hooks: a failed create is tried again while a hook asks, with the errors newest first; no fails it once', async () => {
    const errors = join(suite.prog.dir, 'errors.jsonl');
    let r = await run(`
const retry = new pulumi.ErrorHook('retry', (a) => {
  appendFileSync('errors.jsonl', JSON.stringify(a) + '\\n');
  return a.errors.length < 3;
});
new Thing('flaky', { failTimes: 2 }, { hooks: { onError: [retry] } });`);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(trail(), ['create flaky failed', 'create flaky failed', 'create flaky']);
    const calls = readFileSync(errors, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(calls.length, 2);
    assert.deepEqual(calls[1].errors, ['transient failure 2 of flaky', 'transient failure 1 of flaky']);
    assert.equal(calls[1].failedOperation, 'create');
    assert.equal(calls[1].name, 'flaky');
    assert.equal(calls[1].type, 'oci:Test/thing:Thing');
    assert.deepEqual(calls[1].newInputs, { failTimes: 2 });
    assert.ok(named('flaky')?.id, 'created on the third attempt and recorded');
    assert.ok(cloud('flaky'));

    // A hook that answers no: the provider's error fails the step after one attempt.
    r = await run(
      `new Thing('stubborn', { failTimes: 5 }, { hooks: { onError: [new pulumi.ErrorHook('no', () => false)] } });`,
    );
    assert.equal(r.ok, false);
    assert.match(r.error!, /::stubborn: creating failed: transient failure 1 of stubborn$/);
    assert.deepEqual(trail(), ['create stubborn failed']);
    assert.equal(named('stubborn'), undefined);
    // The plugin answered gRPC Unknown: the resource's status is unknown (2), as Pulumi reads it.
    assert.equal(r.events.find((e) => e.resOpFailedEvent)?.resOpFailedEvent?.status, 2);
    // Under the resource, the provider's own words (GetResourceOperationFailedError is "%v"); then,
    // under the stack, the deployment executor's `update failed` (reportExecResult).
    assert.deepEqual(diagnostics(r.events, 'error'), ['transient failure 1 of stubborn', 'update failed']);

    // A hook that throws fails the step with its own error, in one line.
    r = await run(
      `new Thing('broken', { failTimes: 5 }, { hooks: { onError: [new pulumi.ErrorHook('oops', () => { throw new Error('hook broke'); })] } });`,
    );
    assert.equal(r.ok, false);
    assert.match(r.error!, /::broken: creating failed: error hook "oops" failed: .*hook broke/);
    assert.deepEqual(trail(), ['create broken failed']);
  });
});
