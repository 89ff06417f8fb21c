// Step-generator rules for resource options beyond the basic steps, against the small provider
// plugin in support/fake-provider.ts (real programs through their own cmd/run, real gRPC, real
// state files): delete-before-replace dependents, aliases, deletedWith, replacementTrigger,
// replaceWith and provider replacement, as pulumi/pulumi step_generator.go decides them.
import { after, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EngineEvent } from '../../src/engine';
import { Display } from '../../src/display/display';
import { urnName } from '../../src/engine/urn';
import { diagnostics, fakeProviderFiles, makeProgram, steps, type TestProgram } from './support/harness';

const fake = [resolve(__dirname, 'support/fake-provider.ts')];

const header = `import * as pulumi from '@pulumi/pulumi';
class Thing extends pulumi.CustomResource {
  declare readonly size: pulumi.Output<number>;
  constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    super('oci:Test/thing:Thing', name, { ...args, state: undefined }, opts);
  }
}
`;

/** The run's error diagnostics, each as `<message> @<urn>` (no URN: under the stack). */
function errorsOf(events: EngineEvent[]): string[] {
  return events.flatMap((e) =>
    e.diagnosticEvent?.severity === 'error'
      ? [`${e.diagnosticEvent.message.trim()} @${e.diagnosticEvent.urn ?? ''}`]
      : [],
  );
}

/** The URNs of the run's failed steps (resOpFailedEvent: the display's `failed` rows). */
function failedSteps(events: EngineEvent[]): string[] {
  return events.flatMap((e) => (e.resOpFailedEvent ? [e.resOpFailedEvent.metadata.urn] : []));
}

/** Resource `a`'s step events in order: `pre <op>` and `done <op>`. */
function order(events: EngineEvent[]): string[] {
  return events.flatMap((e) => {
    const m = e.resourcePreEvent?.metadata ?? e.resOutputsEvent?.metadata;
    return m?.urn.endsWith('::a') ? [`${e.resourcePreEvent ? 'pre' : 'done'} ${m.op}`] : [];
  });
}

/** Resource `a`'s rows in the display (its progress view: a replacement's `++` and `--` rows too). */
function rows(events: EngineEvent[], preview: boolean): string[] {
  const chunks: string[] = [];
  const out = {
    isTTY: false,
    columns: 200,
    write: (c: string) => chunks.push(c) > 0,
  } as unknown as NodeJS.WriteStream;
  const options = { mode: 'update', stack: 'dev', json: false, env: {} } as const;
  const display = new Display({ ...options, preview, out });
  events.forEach((e) => display.onEvent(e));
  return chunks
    .join('')
    .split('\n')
    .filter((l) => l.includes(' oci:Test/thing:Thing a '))
    .map((l) =>
      l
        .replace(/ \(.*\)$/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    );
}

describe('engine resource options (fake provider)', () => {
  const progs: TestProgram[] = [];
  let prog: TestProgram;
  let files: ReturnType<typeof fakeProviderFiles>;
  const changes = () => files.calls().filter((c) => /^(create|update|delete)/.test(c));
  const reset = () => files.reset();
  const cloudState = () => files.cloudState();
  const ids = (name: string) => Object.keys(cloudState()).filter((id) => id.startsWith(`fake-${name}-`));
  const resources = () => prog.resources();
  const byName = (name: string) => resources().filter((r) => r.urn.endsWith(`::${name}`));
  const up = async (source: string, options: { preview?: boolean } = {}) => {
    prog.write(header + source);
    reset();
    const r = await prog.run(options);
    assert.equal(r.ok, true, r.error);
    return r;
  };

  beforeEach(() => {
    prog = makeProgram(header, { pluginCommand: fake });
    progs.push(prog);
    files = fakeProviderFiles(prog.dir);
  });
  after(() => progs.forEach((p) => p.remove()));

  it("returns the stack's outputs before a preview or an update, for the display to mark what changed", async () => {
    // A new stack has no previous outputs (Pulumi's stack step has no Old).
    let r = await up(`export const a = 'x';`);
    assert.equal(r.oldOutputs, undefined);
    r = await up(`export const a = 'y';`, { preview: true });
    assert.deepEqual([r.oldOutputs, r.outputs], [{ a: 'x' }, { a: 'y' }]);
    r = await up(`export const a = 'y';`);
    assert.deepEqual([r.oldOutputs, r.outputs], [{ a: 'x' }, { a: 'y' }]);
  });

  it('deletes the dependents a delete-before-replace forces to be replaced first, and only those', async () => {
    const src = (v: string) => `
const root = new Thing('root', { dbr: '${v}' });
const dep = new Thing('dep', { replaceMe: root.id });
new Thing('grand', { replaceMe: dep.id });
new Thing('soft', { ref: root.id });
new Thing('after', { size: 1 }, { dependsOn: [root] });
export const depRef = dep.id.apply(() => root.id);
`;
    await up(src('x'));
    const oldRoot = ids('root')[0];
    let r = await up(src('y'), { preview: true });
    assert.deepEqual(changes(), [], 'a preview changes nothing');
    assert.deepEqual(
      steps(r.events).filter((s) => s.startsWith('delete-replaced')),
      ['delete-replaced grand', 'delete-replaced dep', 'delete-replaced root'],
    );
    assert.equal(r.changes.replace, 3);
    r = await up(src('y'));
    const c = changes();
    // Dependents of dependents first, then the root; then the root is created and its dependents after it.
    assert.deepEqual(c.slice(0, 3), ['delete grand', 'delete dep', 'delete root'], c.join(','));
    assert.ok(c.indexOf('create root') < c.indexOf('create dep'), c.join(','));
    assert.ok(c.indexOf('create dep') < c.indexOf('create grand'), c.join(','));
    // A property that does not force a replacement is updated; a dependsOn edge alone changes nothing.
    assert.ok(c.includes('update soft'), c.join(','));
    assert.ok(!c.some((x) => x.endsWith(' after')), c.join(','));
    assert.equal(r.changes.replace, 3);
    const newRoot = ids('root')[0];
    assert.notEqual(newRoot, oldRoot);
    assert.equal(cloudState()[ids('dep')[0]].replaceMe, newRoot);
    assert.equal(ids('dep').length, 1);
    assert.equal(ids('grand').length, 1);
    assert.equal(cloudState()[ids('soft')[0]].ref, newRoot);
    assert.equal(resources().length, 7); // stack, provider, five things
    await up(src('y'));
    assert.deepEqual(changes(), [], 'converged');
  });

  it("deletes first a dependent that the delete-before-replace changes under its replaceOnChanges (Pulumi's TestDBRReplaceOnChanges)", async () => {
    // pulumi/pulumi#19056: resB's Diff answers unknown, so the engine decides on the inputs (its
    // recorded ignoreChanges applied), then applies its recorded replaceOnChanges
    // (step_generator.go calculateDependentReplacements): resB goes before resA, both replaced.
    const src = (v: string, opts = '') => `
const resA = new Thing('resA', { dbr: '${v}' });
new Thing('resB', { value: resA.id, diffUnknown: true }, { replaceOnChanges: ['value']${opts} });
`;
    await up(src('foo'));
    let r = await up(src('bar'), { preview: true });
    assert.deepEqual(
      steps(r.events).filter((s) => s.startsWith('delete-replaced')),
      ['delete-replaced resB', 'delete-replaced resA'],
    );
    r = await up(src('bar'));
    assert.deepEqual(changes(), ['delete resB', 'delete resA', 'create resA', 'create resB']);
    assert.equal(r.changes.replace, 2);
    assert.equal(cloudState()[ids('resB')[0]].value, ids('resA')[0]);
    assert.equal(resources().length, 4); // stack, provider, resA, resB
    // With the property in its ignoreChanges nothing would change it: resB stays, as Pulumi keeps it.
    await up(src('bar', `, ignoreChanges: ['value']`));
    assert.deepEqual(changes(), []);
    await up(src('baz', `, ignoreChanges: ['value']`));
    assert.deepEqual(changes(), ['delete resA', 'create resA']);
  });

  it("deletes first a dependent whose Diff is still under way, and creates it again once its Diff is back (Pulumi's TestDBRParallel)", async () => {
    // pulumi/pulumi#19945: resB no longer depends on resA and registers beside it. A resource
    // registered but with no step yet is still a dependent (step_generator.go
    // calculateDependentReplacements: impossibleDependents are the resources with a generated
    // step), and one deleted so while its Diff ran is re-created when the Diff is back.
    const first = `
const resA = new Thing('resA', { dbr: 'foo' });
new Thing('resB', { replaceMe: resA.id, dbr: 'foo' });
`;
    const parallel = (waitA: string[], waitB: string[]) => `
new Thing('resA', { dbr: 'bar', diffWaitsFor: ${JSON.stringify(waitA)} });
new Thing('resB', { replaceMe: 'x', dbr: 'bar', diffWaitsFor: ${JSON.stringify(waitB)} });
`;
    const ops = (events: EngineEvent[], name: string) =>
      steps(events)
        .filter((s) => s.endsWith(` ${name}`))
        .map((s) => s.split(' ')[0]);
    const replaced = ['delete-replaced', 'replace', 'create-replacement'];
    // resB is deleted before resA, each deleted and created once; resB's create may come before or
    // after resA's delete (nothing orders them: resB no longer depends on resA).
    const deletedBFirst = (c: string[]) => {
      assert.equal(c[0], 'delete resB', c.join(','));
      assert.deepEqual([...c].sort(), ['create resA', 'create resB', 'delete resA', 'delete resB'], c.join(','));
      assert.ok(c.indexOf('delete resA') < c.indexOf('create resA'), c.join(','));
    };
    // resA's Diff comes back first; resB's waits until one of the two is deleted.
    await up(first);
    let r = await up(parallel([], ['delete resB', 'delete resA']));
    let c = changes();
    deletedBFirst(c);
    assert.deepEqual([ops(r.events, 'resA'), ops(r.events, 'resB')], [replaced, replaced]);
    assert.equal(r.changes.replace, 2);
    assert.deepEqual([ids('resA').length, ids('resB').length], [1, 1]);
    assert.equal(resources().length, 4); // stack, provider, resA, resB
    // resB's Diff comes back first, its own delete-before-replace decided: resA's leaves it alone.
    await up(first);
    r = await up(parallel(['delete resB'], []));
    c = changes();
    deletedBFirst(c);
    assert.deepEqual([ops(r.events, 'resA'), ops(r.events, 'resB')], [replaced, replaced]);
    assert.deepEqual([ids('resA').length, ids('resB').length], [1, 1]);
  });

  it("runs a delete-before-replace's steps one after the other in Pulumi's order, and shows their rows so", async () => {
    // Pulumi's step generator chains delete-replaced, replace, create-replacement, each step's
    // events before the next (lifecycletest testdata TestDBRReplaceOnChanges/1: eventstream.json,
    // progress.stdout.txt and diff.stdout.txt with --show-replacement-steps).
    const src = (v: string) => `new Thing('a', { dbr: '${v}' });\n`;
    const steps3 = ['delete-replaced', 'replace', 'create-replacement'];
    const paired = steps3.flatMap((op) => [`pre ${op}`, `done ${op}`]);
    await up(src('x'));
    const planned = await up(src('y'), { preview: true });
    assert.deepEqual(order(planned.events), paired);
    assert.deepEqual(rows(planned.events, true), [
      '-- oci:Test/thing:Thing a delete original',
      '+- oci:Test/thing:Thing a replace',
      '++ oci:Test/thing:Thing a create replacement',
    ]);
    const r = await up(src('y'));
    assert.deepEqual(order(r.events), paired);
    // The replace step is done before the create starts: its new state has no id yet.
    const replaced = r.events.find((e) => e.resOutputsEvent?.metadata.op === 'replace')!.resOutputsEvent!.metadata;
    assert.equal(replaced.new?.id ?? '', '');
    assert.deepEqual(rows(r.events, false), [
      '-- oci:Test/thing:Thing a deleting original',
      '-- oci:Test/thing:Thing a deleted original',
      '+- oci:Test/thing:Thing a replacing [diff: ~dbr]',
      '+- oci:Test/thing:Thing a replaced',
      '++ oci:Test/thing:Thing a creating replacement [diff: ~dbr]',
      '++ oci:Test/thing:Thing a created replacement',
    ]);
    assert.equal(r.changes.replace, 1);
    assert.deepEqual(changes(), ['delete a', 'create a']);

    // Its replace step succeeded before the create failed: Pulumi counts it (update.go
    // OnResourceStepPost counts a logical step once it succeeded), `+- 1 replaced`.
    prog.write(header + `new Thing('a', { dbr: 'z', failTimes: 1 });\n`);
    reset();
    const failed = await prog.run();
    assert.equal(failed.ok, false);
    assert.deepEqual(order(failed.events), [
      'pre delete-replaced',
      'done delete-replaced',
      'pre replace',
      'done replace',
      'pre create-replacement',
    ]);
    assert.equal(failed.changes.replace, 1);
    const summary = failed.events.find((e) => e.summaryEvent)!.summaryEvent!;
    assert.equal(summary.resourceChanges.replace, 1);
  });

  it("runs a create-before-delete's create-replacement before its replace step, and shows their rows so", async () => {
    // Pulumi's step generator returns [create-replacement, replace] for a create-before-delete
    // (step_generator.go continueStepsFromDiff) and the step executor runs the chain in order, each
    // step's events before the next; the delete-replaced comes with the deletes at the end.
    const src = (v: string) => `new Thing('a', { replaceMe: '${v}' });\n`;
    const paired = ['create-replacement', 'replace', 'delete-replaced'].flatMap((op) => [`pre ${op}`, `done ${op}`]);
    await up(src('x'));
    const planned = await up(src('y'), { preview: true });
    assert.deepEqual(order(planned.events), paired);
    assert.deepEqual(rows(planned.events, true), [
      '++ oci:Test/thing:Thing a create replacement',
      '+- oci:Test/thing:Thing a replace',
      '-- oci:Test/thing:Thing a delete original',
    ]);
    const r = await up(src('y'));
    assert.deepEqual(order(r.events), paired);
    // The replace step's new state is the one its create-replacement made.
    const replaced = r.events.find((e) => e.resourcePreEvent?.metadata.op === 'replace')!.resourcePreEvent!.metadata;
    assert.equal(replaced.new?.id, ids('a')[0]);
    assert.deepEqual(rows(r.events, false), [
      '++ oci:Test/thing:Thing a creating replacement [diff: ~replaceMe]',
      '++ oci:Test/thing:Thing a created replacement',
      '+- oci:Test/thing:Thing a replacing [diff: ~replaceMe]',
      '+- oci:Test/thing:Thing a replaced',
      '-- oci:Test/thing:Thing a deleting original',
      '-- oci:Test/thing:Thing a deleted original',
    ]);
    assert.equal(r.changes.replace, 1);
    assert.deepEqual(changes(), ['create a', 'delete a']);
  });

  it("ends a run whose step failed with Pulumi's `update failed` under the stack, and not one that failed before any step", async () => {
    // deployment_executor.go Execute: once the step executor errored, reportExecResult("failed")
    // reports "update failed" ("preview failed" in a preview) with no URN, which the display puts
    // under the stack, after the stack's outputs; an error of the step generator (Check) bails without it.
    const errors = errorsOf;
    prog.write(header + `new Thing('a', { failTimes: 1 });\n`);
    reset();
    const r = await prog.run();
    assert.equal(r.ok, false);
    assert.match(r.error!, /::a: creating failed: /, 'the run still names the failed resource');
    const said = errors(r.events);
    assert.equal(said.at(-1), 'update failed @', said.join('\n'));
    assert.equal(said.filter((m) => m.startsWith('update failed')).length, 1, said.join('\n'));
    assert.ok(said[0].includes('transient failure 1 of a'), said.join('\n'));

    prog.write(header + `new Thing('b', { bad: true });\n`);
    const checked = await prog.run();
    assert.equal(checked.ok, false);
    assert.ok(!errors(checked.events).some((m) => m.startsWith('update failed')), errors(checked.events).join('\n'));

    // A preview whose delete of a protected resource fails (DeleteStep.Apply) ends with "preview failed".
    await up(`new Thing('p', { size: 1 }, { protect: true });\n`);
    prog.write(header);
    const planned = await prog.run({ preview: true });
    assert.equal(planned.ok, false);
    assert.equal(errors(planned.events).at(-1), 'preview failed @', errors(planned.events).join('\n'));
    // An update's refused delete fails its delete step the same way: `update failed`.
    const refused = await prog.run();
    assert.equal(refused.ok, false);
    assert.match(refused.error!, /::p" cannot be deleted/);
    assert.equal(errors(refused.events).at(-1), 'update failed @', errors(refused.events).join('\n'));
  });

  it('ends an `ocikit import` whose import step failed with `update failed` under the stack (`preview failed` with --preview-only)', async () => {
    // deployment_executor.go importResources: once the step executor errored (ImportStep.Apply's
    // read failed), reportExecResult("failed"), "update" unless a dry run, with no URN.
    await up(`new Thing('kept', { size: 1 });\n`);
    reset();
    const imports = [{ type: 'oci:Test/thing:Thing', name: 'adopted', id: 'fake-nothing-here' }];
    for (const preview of [false, true]) {
      const r = await prog.run({ imports, preview });
      assert.equal(r.ok, false);
      assert.match(r.error!, /::adopted: /, 'the run still names the resource');
      const said = errorsOf(r.events);
      assert.equal(said.length, 2, said.join('\n'));
      assert.match(said[0], /::adopted$/, 'the read error, under the resource');
      assert.equal(said[1], `${preview ? 'preview' : 'update'} failed @`, said.join('\n'));
    }
    assert.deepEqual(changes(), []);
  });

  it('refuses to delete a protected dependent of a delete-before-replace resource', async () => {
    const src = (v: string) => `
const root = new Thing('root', { dbr: '${v}' });
new Thing('dep', { replaceMe: root.id }, { protect: true });
`;
    await up(src('x'));
    const root = byName('root')[0].urn;
    prog.write(header + src('y'));
    reset();
    const r = await prog.run();
    assert.equal(r.ok, false);
    assert.match(r.error!, /unable to replace resource ".*::dep" as part of replacing ".*::root".*protect/);
    assert.deepEqual(changes(), []);
    assert.equal(ids('root').length, 1);
    // step_generator.go continueStepsFromDiff: the step generator's refusal, under the replaced
    // resource, and a bail (no step, no failed row, no `update failed`), in a preview too.
    for (const run of [r, await prog.run({ preview: true })]) {
      assert.equal(run.ok, false);
      assert.deepEqual(failedSteps(run.events), []);
      const said = errorsOf(run.events);
      assert.equal(said.length, 1, said.join('\n'));
      // Pulumi's words, the command naming the dependent.
      assert.match(
        said[0],
        /^unable to replace resource ".*::dep" as part of replacing ".*::root" as it is currently marked for protection\. .* run `ocikit up`, or use the command:\n`ocikit state unprotect '.*::dep'` @/,
      );
      assert.ok(said[0].endsWith(` @${root}`), said[0]);
    }
  });

  it("stops at a delete-before-replace dependent's failed delete, replacing nothing, and converges on the next up", async () => {
    // The dependent is deleted ahead of the root (continueStepsFromDiff's dependent delete steps,
    // which the root's delete waits on). Its delete fails: the run fails with that step, the root
    // is neither deleted nor created again, both stay in the state; the next up does the rest.
    const src = (v: string) => `
const root = new Thing('root', { dbr: '${v}' });
new Thing('dep', { replaceMe: root.id, failDeleteTimes: 1 });
`;
    await up(src('x'));
    const before = { root: ids('root'), dep: ids('dep') };
    prog.write(header + src('y'));
    reset();
    const r = await prog.run();
    assert.equal(r.ok, false);
    assert.match(r.error!, /::dep: deleting failed: .*transient delete failure 1 of dep/);
    assert.deepEqual(failedSteps(r.events).map(urnName), ['dep']);
    assert.deepEqual(changes(), ['delete dep failed']);
    assert.deepEqual({ root: ids('root'), dep: ids('dep') }, before);
    assert.deepEqual(
      ['root', 'dep'].map((n) => byName(n).map((s) => s.id)),
      [before.root, before.dep],
    );
    await up(src('y'));
    assert.deepEqual(changes(), ['delete dep', 'delete root', 'create root', 'create dep']);
    assert.equal(ids('root').length, 1);
    assert.notDeepEqual(ids('root'), before.root);
  });

  it('replaces a resource whose protect is set or cleared in the same update, refusing only one protected before and after', async () => {
    // step_generator.go generateSteps refuses a replacement only when new.Protect && old.Protect.
    const src = (v: string, protect: boolean) => `new Thing('t', { replaceMe: '${v}' }, { protect: ${protect} });`;
    await up(src('a', false));
    for (const [v, protect] of [
      ['b', true],
      ['c', false],
    ] as const) {
      const before = ids('t');
      await up(src(v, protect));
      assert.notDeepEqual(ids('t'), before, `${v}: replaced`);
      assert.equal(byName('t')[0].protect ?? false, protect);
    }
    await up(src('d', true));
    const t = byName('t')[0].urn;
    prog.write(header + src('e', true));
    reset();
    const r = await prog.run();
    assert.equal(r.ok, false);
    assert.match(r.error!, /unable to replace resource ".*::t"\sas it is currently marked for protection/);
    assert.deepEqual(changes(), []);
    // The step generator's refusal (continueStepsFromDiff): the error under the resource, then a
    // bail: no step, so no failed row, and no `update failed` (Execute returns on a bail first).
    const refusal = `unable to replace resource "${t}"\nas it is currently marked for protection.`;
    assert.deepEqual(failedSteps(r.events), []);
    assert.deepEqual(steps(r.events), []);
    let said = errorsOf(r.events);
    assert.equal(said.length, 1, said.join('\n'));
    assert.ok(said[0].startsWith(refusal) && said[0].endsWith(` @${t}`), said[0]);
    // A preview reports it and goes on planning the replacement, so the user sees it, then fails.
    const planned = await prog.run({ preview: true });
    assert.equal(planned.ok, false);
    assert.match(planned.error!, /unable to replace resource ".*::t"\sas it is currently marked for protection/);
    assert.deepEqual(failedSteps(planned.events), []);
    assert.ok(steps(planned.events).includes('replace t'), steps(planned.events).join(','));
    said = errorsOf(planned.events);
    assert.ok(said[0].startsWith(refusal) && said[0].endsWith(` @${t}`), said.join('\n'));
    // At its end, `preview failed` under the stack (Execute: ex.stepGen.Errored()).
    assert.deepEqual(said.slice(1), ['preview failed @'], said.join('\n'));
    assert.deepEqual(changes(), []);
  });

  it('moves a renamed or re-parented resource through its alias instead of deleting and creating it', async () => {
    await up(`
const grp = new pulumi.ComponentResource('test:index:Group', 'grp');
new Thing('old', { size: 1 });
new Thing('child', { size: 1 }, { parent: grp });
new Thing('byUrn', { size: 1 });
`);
    const before = Object.keys(cloudState()).sort();
    const oldUrn = byName('byUrn')[0].urn;
    const r = await up(
      `
const grp = new pulumi.ComponentResource('test:index:Group', 'grp');
new Thing('renamed', { size: 1 }, { aliases: [{ name: 'old' }] });
new Thing('child', { size: 1 }, { aliases: [{ parent: grp }] });
new Thing('byUrn2', { size: 1 }, { aliases: ['${oldUrn}'] });
`,
      { preview: true },
    );
    assert.deepEqual(
      steps(r.events)
        .filter((s) => !s.startsWith('same'))
        .sort(),
      [],
    );
    await up(`
const grp = new pulumi.ComponentResource('test:index:Group', 'grp');
new Thing('renamed', { size: 2 }, { aliases: [{ name: 'old' }] });
new Thing('child', { size: 1 }, { aliases: [{ parent: grp }] });
new Thing('byUrn2', { size: 1 }, { aliases: ['${oldUrn}'] });
`);
    assert.deepEqual(changes(), ['update renamed'], 'moved in state, updated in place, nothing created or deleted');
    assert.deepEqual(Object.keys(cloudState()).sort(), before);
    assert.deepEqual(byName('old'), []);
    assert.deepEqual(byName('renamed')[0].aliases, ['urn:pulumi:dev::enginetest::oci:Test/thing:Thing::old']);
    const child = byName('child');
    assert.equal(child.length, 1);
    assert.equal(child[0].urn, 'urn:pulumi:dev::enginetest::oci:Test/thing:Thing::child');
    assert.ok(!child[0].parent?.includes('Group'), 'the child is under the stack now');
    assert.equal(byName('byUrn2').length, 1);
    assert.equal(byName('byUrn').length, 0);
    // The alias is no longer needed once the state has moved.
    await up(`
const grp = new pulumi.ComponentResource('test:index:Group', 'grp');
new Thing('renamed', { size: 2 });
new Thing('child', { size: 1 });
new Thing('byUrn2', { size: 1 });
`);
    assert.deepEqual(changes(), []);
  });

  it('renames a component and its children follow it through the inherited alias', async () => {
    await up(`
const grp = new pulumi.ComponentResource('test:index:Group', 'app');
new Thing('app-thing', { size: 1 }, { parent: grp });
`);
    const r = await up(`
const grp = new pulumi.ComponentResource('test:index:Group', 'web', {}, { aliases: [{ name: 'app' }] });
new Thing('web-thing', { size: 1 }, { parent: grp });
`);
    assert.deepEqual(changes(), []);
    assert.ok(steps(r.events).includes('same web-thing'));
    assert.equal(byName('web-thing')[0].parent, 'urn:pulumi:dev::enginetest::test:index:Group::web');
  });

  it('ignores the changes its ignoreChanges paths name as Pulumi reads them, wildcards included, and fails on a path it cannot follow', async () => {
    await up(`
new Thing('star', { tags: { team: 'x', env: 'p' }, list: [{ n: 'a', size: 1 }] }, { ignoreChanges: ['tags.*', 'list[*].size'] });
new Thing('gone', { tags: { team: 'x' } }, { ignoreChanges: ['tags.team'] });
`);
    // \`tags.*\` keeps every old tag and drops the new ones; \`list[*].size\` each element's size.
    let r = await up(`
new Thing('star', { tags: { team: 'y', added: 'z' }, list: [{ n: 'a', size: 2 }] }, { ignoreChanges: ['tags.*', 'list[*].size'] });
new Thing('gone', { tags: { team: 'x' } }, { ignoreChanges: ['tags.team'] });
`);
    assert.deepEqual(changes(), []);
    assert.deepEqual(steps(r.events).sort(), ['same gone', 'same star']);
    // An object the old inputs have on the path and the new ones lack: Pulumi's step generator
    // refuses the registration (processIgnoreChanges), where ocikit put the old tag back.
    prog.write(header + `new Thing('gone', {}, { ignoreChanges: ['tags.team'] });\nnew Thing('other', { size: 1 });`);
    reset();
    // Before targeting is considered: an up that targets another resource fails on it too.
    const other = byName('star')[0].urn.replace(/star$/, 'other');
    r = await prog.run({ targets: [other] });
    assert.equal(r.ok, false);
    assert.match(r.error!, /::gone: cannot ignore changes to the following properties/);
    r = await prog.run();
    assert.equal(r.ok, false);
    const message =
      'cannot ignore changes to the following properties because one or more elements of the path are missing: "tags.team"';
    assert.match(r.error!, /::gone: cannot ignore changes to the following properties because one or more elements/);
    assert.ok(diagnostics(r.events, 'error').includes(message), diagnostics(r.events).join('\n'));
    assert.deepEqual(changes(), []);
    assert.deepEqual(byName('gone')[0].inputs, { tags: { team: 'x' } }, 'the state keeps its inputs');
  });

  it('gives a resource with a pluginDownloadURL a default provider of its own, named and configured as Pulumi names it', async () => {
    await up(`
const plain = new Thing('plain', { size: 1 });
new Thing('fromUrl', { size: 1 }, { pluginDownloadURL: 'https://example.com/oci/' });
new Thing('readBack', {}, { id: plain.id, pluginDownloadURL: 'https://example.com/read' });
new Thing('again', { size: 1 }, { pluginDownloadURL: 'https://example.com/oci' });
const explicit = new pulumi.ProviderResource('oci', 'explicit', {}, { pluginDownloadURL: 'https://example.com/p' });
new Thing('viaExplicit', { size: 1 }, { provider: explicit });
`);
    const providerOf = (name: string) =>
      byName(name)[0]
        .provider!.replace(/::[^:]+$/, '')
        .split('::')
        .pop();
    assert.equal(providerOf('plain'), 'default');
    // ProviderRequest.DefaultName: the URL (its trailing / trimmed) through tokens.IntoQName.
    assert.equal(providerOf('fromUrl'), 'default_https_/example.com/oci');
    assert.equal(providerOf('again'), 'default_https_/example.com/oci');
    assert.equal(providerOf('readBack'), 'default_https_/example.com/read', 'a read (Resource.get) too');
    // Kept where Pulumi keeps it (registry.go SetProviderURL): in the inputs' `__internal`, which
    // the plugin is not given and the outputs leave out (filterProviderConfig).
    const provider = byName('default_https_/example.com/oci')[0];
    assert.deepEqual(provider.inputs.__internal, { pluginDownloadURL: 'https://example.com/oci' });
    assert.equal(provider.outputs?.__internal, undefined);
    assert.equal(byName('default')[0].inputs?.__internal, undefined, 'no version, no URL: no __internal');
    // An explicit provider's too (the resource monitor's SetProviderURL).
    assert.deepEqual(byName('explicit')[0].inputs.__internal, { pluginDownloadURL: 'https://example.com/p' });
  });

  it("passes a registration's hideDiffs to its step events for the display, and keeps them out of the state", async () => {
    await up(`new Thing('quiet', { size: 1 }, { hideDiffs: ['size'] });`);
    const r = await up(`new Thing('quiet', { size: 2 }, { hideDiffs: ['size'] });`, { preview: true });
    const pre = r.events.find((e) => e.resourcePreEvent?.metadata.urn.endsWith('::quiet'))!.resourcePreEvent!;
    assert.equal(pre.metadata.op, 'update');
    assert.deepEqual(pre.metadata.new?.hideDiffs, ['size']);
    assert.ok(!readFileSync(join(prog.dir, '.ocikit/stacks/dev.json'), 'utf8').includes('hideDiffs'));
  });

  it('skips the delete of a resource whose deletedWith target is deleted in the same run', async () => {
    await up(`
const owner = new Thing('owner', { size: 1 });
new Thing('inner', { size: 1 }, { deletedWith: owner });
new Thing('other', { size: 1 }, { deletedWith: owner });
`);
    // Removing only a dependent still deletes it; removing its target skips its delete.
    await up(`
const owner = new Thing('owner', { size: 1 });
new Thing('inner', { size: 1 }, { deletedWith: owner });
`);
    assert.deepEqual(changes(), ['delete other']);
    await up(``);
    assert.deepEqual(changes(), ['delete owner'], 'inner goes with its owner');
    assert.equal(ids('inner').length, 1, 'the provider was not asked to delete it');
    assert.equal(resources().filter((r) => r.urn.includes('Thing')).length, 0);
  });

  it('replaces what --replace names, whatever its diff says, in the order its options ask, and nothing else', async () => {
    const src = `new Thing('a', { size: 1 });\nnew Thing('b', { size: 1 }, { deleteBeforeReplace: true });\n`;
    await up(src);
    const [oldA, oldB] = [ids('a')[0], ids('b')[0]];
    reset();
    const planned = await prog.run({ preview: true, replace: ['urn:pulumi:dev::enginetest::oci:Test/thing:Thing::a'] });
    const planSteps = steps(planned.events);
    assert.deepEqual(
      planSteps.filter((step) => step.endsWith(' a')),
      ['create-replacement a', 'replace a', 'delete-replaced a'],
    );
    assert.ok(planSteps.includes('same b'), planSteps.join(', '));
    assert.deepEqual(changes(), [], 'a preview changes nothing');
    let r = await prog.run({ replace: ['urn:pulumi:dev::enginetest::oci:Test/thing:Thing::a'] });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(changes(), ['create a', 'delete a'], 'create before delete');
    assert.notEqual(ids('a')[0], oldA);
    reset();
    r = await prog.run({ replace: ['urn:pulumi:*::enginetest::**::b'] });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(changes(), ['delete b', 'create b'], 'the deleteBeforeReplace option holds');
    assert.notEqual(ids('b')[0], oldB);
    assert.equal(byName('b').length, 1);
  });

  it('replaces a component that --replace names delete-before-replace when its option says so, its children kept', async () => {
    // step_generator.go: a targeted replace's diff names no order, so deleteBeforeReplace decides
    // for a component too (the Node SDK sends the option for any resource).
    const src = `
const dbr = new pulumi.ComponentResource('test:index:Group', 'dbr', {}, { deleteBeforeReplace: true } as pulumi.ComponentResourceOptions);
new Thing('child', { size: 1 }, { parent: dbr });
new pulumi.ComponentResource('test:index:Group', 'cbd');
`;
    await up(src);
    const created = () => (byName('dbr')[0] as { created?: string }).created;
    const before = created();
    const replace = ['dbr', 'cbd'].map((n) => `urn:pulumi:dev::enginetest::test:index:Group::${n}`);
    const of = (events: Parameters<typeof steps>[0], name: string) =>
      steps(events).filter((s) => s.endsWith(` ${name}`));
    reset();
    const planned = await prog.run({ preview: true, replace });
    assert.equal(planned.ok, true, planned.error);
    const planDbr = of(planned.events, 'dbr');
    assert.ok(planDbr.indexOf('delete-replaced dbr') < planDbr.indexOf('create-replacement dbr'), planDbr.join(', '));
    const r = await prog.run({ replace });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(of(r.events, 'dbr'), ['delete-replaced dbr', 'replace dbr', 'create-replacement dbr']);
    assert.deepEqual(of(r.events, 'cbd'), ['replace cbd', 'create-replacement cbd', 'delete-replaced cbd']);
    assert.deepEqual(
      of(r.events, 'child'),
      ['same child'],
      'a child is not a dependent (DependingOn without children)',
    );
    assert.equal(r.changes.replace, 2);
    assert.notEqual(created(), before);
    assert.equal(byName('dbr').length, 1);
    assert.equal(byName('cbd').length, 1);
    assert.ok(!resources().some((x) => x.delete || 'pendingReplacement' in x), JSON.stringify(resources()));
    assert.deepEqual(changes(), []);

    // A run killed between the delete and the create leaves the component pendingReplacement, as a
    // custom resource; the next up creates it without deleting it again (continueStepsFromDiff).
    const file = join(prog.dir, '.ocikit/stacks/dev.json');
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    for (const x of saved.checkpoint.latest.resources) if (x.urn === replace[0]) x.pendingReplacement = true;
    writeFileSync(file, JSON.stringify(saved));
    const again = await up(src);
    assert.deepEqual(of(again.events, 'dbr'), ['replace dbr', 'create-replacement dbr']);
    assert.deepEqual(of(again.events, 'cbd'), ['same cbd']);
    assert.equal(byName('dbr').length, 1);
    assert.ok(!resources().some((x) => x.delete || 'pendingReplacement' in x), JSON.stringify(resources()));
  });

  it("lets the deleteBeforeReplace option overrule the provider's order, and replaces dependents only delete-before-replace", async () => {
    // pulumi/pulumi pkg/engine/lifecycletest TestExplicitDeleteBeforeReplace: b's input depends on
    // a (its value does not change), so b is replaced only when a goes first.
    const src = (v: string, dbr: string, option?: boolean) => `
const a = new Thing('a', { replaceMe: '${v}', dbr: '${dbr}' }${option === undefined ? '' : `, { deleteBeforeReplace: ${option} }`});
new Thing('b', { replaceMe: a.id.apply(() => 'foo') });
`;
    await up(src('foo', 'x'));
    const runs: Array<[string, string, boolean | undefined, string[]]> = [
      ['bar', 'x', undefined, ['create a', 'delete a']],
      ['baz', 'x', true, ['delete b', 'delete a', 'create a', 'create b']],
      ['zam', 'x', undefined, ['create a', 'delete a']],
      ['zam', 'y', undefined, ['delete b', 'delete a', 'create a', 'create b']],
      ['bar', 'z', false, ['create a', 'delete a']],
    ];
    for (const [v, dbr, option, expected] of runs) {
      await up(src(v, dbr, option));
      assert.deepEqual(changes(), expected, `${v} ${dbr} ${option}`);
    }
    assert.equal(ids('a').length, 1);
    assert.equal(ids('b').length, 1);
  });

  it('leaves alone a dependent that no longer depends on a delete-before-replace resource and registered first', async () => {
    // pulumi/pulumi pkg/engine/lifecycletest TestDependencyChangeDBR: calculateDependentReplacements
    // ignores the resources already registered (sg.urns), so b is same, never deleted.
    await up(`
const a = new Thing('a', { dbr: 'x' });
new Thing('b', { replaceMe: a.id.apply(() => 'foo') });
`);
    const r = await up(`
const b = new Thing('b', { replaceMe: 'foo' });
new Thing('a', { dbr: 'y' }, { dependsOn: [b] }); // registered once b is, as the Go test's program
`);
    assert.deepEqual(changes(), ['delete a', 'create a']);
    assert.ok(steps(r.events).includes('same b'), steps(r.events).join(', '));
  });

  it('replaces a tainted resource and deletes its tainted copy pending deletion, leaving one untainted copy', async () => {
    // pulumi/pulumi pkg/engine/lifecycletest/taint_test.go TestTaintWithPendingDelete.
    const src = `new Thing('r', { foo: 'bar' });`;
    await up(src);
    const first = byName('r')[0];
    const file = join(prog.dir, '.ocikit/stacks/dev.json');
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    const list: Array<Record<string, unknown>> = saved.checkpoint.latest.resources;
    const live = list.find((x) => x.urn === first.urn)!;
    live.taint = true;
    list.push({ ...live, id: 'fake-r-old', inputs: { foo: 'old' }, outputs: { foo: 'old' }, delete: true });
    writeFileSync(file, JSON.stringify(saved));
    await up(src);
    const r = byName('r');
    assert.equal(r.length, 1, JSON.stringify(r));
    assert.notEqual(r[0].id, first.id);
    assert.ok(!('taint' in r[0]) && !r[0].delete);
    assert.deepEqual(ids('r'), [r[0].id]);
  });

  it('creates the default provider of a targeted create on a new stack, and nothing untargeted', async () => {
    // pulumi/pulumi pkg/engine/lifecycletest/target_test.go TestTargetedCreateDefaultProvider and
    // TestTargetDependents: the stack, the default provider and resA only.
    prog.write(header + `new Thing('a', { size: 1 });\nnew Thing('b', { size: 1 });\n`);
    reset();
    const r = await prog.run({ targets: ['urn:pulumi:dev::enginetest::oci:Test/thing:Thing::a'] });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(changes(), ['create a']);
    const urns = resources().map((x) => x.urn.split('::').slice(2).join('::'));
    assert.equal(urns.length, 3, urns.join(', '));
    assert.ok(
      urns.some((u) => u.startsWith('pulumi:providers:oci::default')),
      urns.join(', '),
    );
    assert.ok(urns.includes('oci:Test/thing:Thing::a'));
  });

  it('replaces a retainOnDelete resource without deleting the old one, and forgets it when removed', async () => {
    // pulumi/pulumi pkg/engine/lifecycletest TestRetainOnDelete: the provider's Delete is never called.
    const src = (v: string) => `new Thing('r', { replaceMe: '${v}' }, { retainOnDelete: true });`;
    await up(src('bar'));
    const first = ids('r');
    const r = await up(src('baz'));
    assert.deepEqual(changes(), ['create r']);
    assert.equal(r.changes.replace, 1);
    assert.equal(byName('r').length, 1);
    assert.notDeepEqual(byName('r')[0].id, first[0]);
    await up(`export const none = 1;`);
    assert.deepEqual(changes(), []);
    assert.deepEqual(byName('r'), []);
    assert.equal(ids('r').length, 2, 'both copies stay in the cloud');
  });

  it('replaces a resource when its replacementTrigger changes, and with the resources in replaceWith', async () => {
    const src = (trigger: string, root: string) => `
const root = new Thing('root', { replaceMe: '${root}' });
new Thing('trig', { size: 1 }, { replacementTrigger: pulumi.secret('tr1gger-${trigger}') });
new Thing('follower', { size: 1 }, { replaceWith: [root] });
`;
    await up(src('a', 'r1'));
    await up(src('a', 'r1'));
    assert.deepEqual(changes(), [], 'an unchanged trigger replaces nothing');
    await up(src('b', 'r1'));
    assert.deepEqual(changes(), ['create trig', 'delete trig']);
    const stateText = readFileSync(join(prog.dir, '.ocikit/stacks/dev.json'), 'utf8');
    assert.ok(
      stateText.includes('replacementTrigger') && !stateText.includes('tr1gger-'),
      'a secret trigger is encrypted',
    );
    const r = await up(src('b', 'r2'));
    const c = changes();
    assert.ok(c.includes('create follower') && c.includes('delete follower'), c.join(','));
    assert.equal(r.changes.replace, 2);
  });

  it('refuses an untargeted resource whose provider the program no longer registers, under the resource and with no step', async () => {
    // step_generator.go generateSteps: an untargeted resource whose old provider is not registered
    // is the step generator's error (fmt.Errorf), which the deployment executor reports under the
    // resource before it bails (Execute: reportError with generateEventURN): no failed row and no
    // `update failed`, in a preview too.
    await up(`
const p = new pulumi.ProviderResource('oci', 'p', {});
new Thing('a', { size: 1 }, { provider: p });
new Thing('b', { size: 1 });
`);
    const a = byName('a')[0];
    prog.write(
      header +
        `
const q = new pulumi.ProviderResource('oci', 'q', {});
new Thing('a', { size: 1 }, { provider: q });
new Thing('b', { size: 2 });
`,
    );
    const b = byName('b')[0].urn;
    for (const preview of [false, true]) {
      reset();
      const r = await prog.run({ preview, targets: [b] });
      assert.equal(r.ok, false);
      assert.deepEqual(failedSteps(r.events), []);
      assert.deepEqual(errorsOf(r.events), [
        `provider ${a.provider} for resource ${a.urn} has not been registered yet, this is due to a change of providers mixed with --target. Change your program back to the original providers @${a.urn}`,
      ]);
      assert.deepEqual(changes(), []);
    }
  });

  it('replaces a provider whose DiffConfig asks for it, then every resource it manages', async () => {
    const src = (generation: number) => `
const p = new pulumi.ProviderResource('oci', 'p', { generation: ${generation} });
new Thing('managed', { size: 1 }, { provider: p });
new Thing('unmanaged', { size: 1 });
`;
    await up(src(1));
    const oldProvider = byName('p')[0];
    const oldManaged = ids('managed')[0];
    await up(src(1));
    assert.deepEqual(changes(), []);
    const r = await up(src(2));
    const c = changes();
    assert.deepEqual(c, ['create managed', 'delete managed'], c.join(','));
    assert.equal(r.changes.replace, 2); // the provider and its resource
    const provider = byName('p');
    assert.equal(provider.length, 1);
    assert.notEqual(provider[0].id, oldProvider.id);
    assert.equal(byName('managed')[0].provider, `${provider[0].urn}::${provider[0].id}`);
    assert.notEqual(ids('managed')[0], oldManaged);
    assert.equal(ids('managed').length, 1);
  });
});
