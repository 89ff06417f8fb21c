import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { models } from 'oci-disasterrecovery';
import {
  assertIntegrity,
  inlineProgram,
  ok,
  program,
  readCheckpoint,
  startCloud,
  type Cloud,
  type Program,
} from '../support/programs';

// `ocikit import --file`, as `pulumi import --file`: resources made outside (with the official OCI
// SDK) adopted in one run, a component and a parent from the file, a provider from its nameTable;
// the code it writes, pasted into the program, previews with no change.
const ENDPOINT = 'oci:AiLanguage/endpoint:Endpoint';
const DRPLAN = 'oci:DisasterRecovery/drPlan:DrPlan';
const GROUP = 'importfile:index:Group';
const INDEX = `import * as pulumi from '@pulumi/pulumi';
import * as oci from '@pulumi/oci';

const standby = new oci.Provider('standby', { region: new pulumi.Config().require('standbyRegion') });
`;
const urn = (qualifiedType: string, name: string) => `urn:pulumi:dev::importfile::${qualifiedType}::${name}`;

let cloud: Cloud;
let p: Program;
let ids: { first: string; second: string; plan: string };

async function createEndpoint(displayName: string): Promise<string> {
  const language = cloud.t.language();
  const { endpoint } = await language.createEndpoint({
    createEndpointDetails: {
      compartmentId: cloud.sandbox.compartmentId,
      modelId: cloud.sandbox.textModelId,
      displayName,
      inferenceUnits: 1,
    },
  });
  for (let i = 0; i < 100; i++) {
    if ((await language.getEndpoint({ endpointId: endpoint.id })).endpoint.lifecycleState === 'ACTIVE') break;
    await cloud.t.advance(1);
  }
  return endpoint.id;
}

const importFile = (content: unknown) => {
  const file = join(p.dir, 'import.json');
  writeFileSync(file, JSON.stringify(content, null, 2));
  return file;
};
const bulk = () => ({
  nameTable: { standby: urn('pulumi:providers:oci', 'standby') },
  resources: [
    // A child before its parent: the file's order does not matter, parents are imported first.
    { type: ENDPOINT, name: 'second', id: ids.second, parent: 'group' },
    { type: GROUP, name: 'group', component: true },
    { type: ENDPOINT, name: 'first', logicalName: 'first-endpoint', id: ids.first },
    { type: DRPLAN, name: 'plan', id: ids.plan, provider: 'standby' },
  ],
});

before(async () => {
  cloud = await startCloud();
  p = program(inlineProgram('importfile', INDEX), { PULUMI_NODEJS_TRANSPILE_ONLY: 'true', ...cloud.env });
  p.setConfig({ ...cloud.ociConfig, 'importfile:standbyRegion': cloud.sandbox.peerRegion });
  ok(await p.run(['up', '--yes']));
  const { drPlan } = await cloud.t.dr(cloud.sandbox.peerRegion).createDrPlan({
    createDrPlanDetails: {
      displayName: 'bulk-plan',
      type: models.DrPlanType.Switchover,
      drProtectionGroupId: cloud.sandbox.standbyGroupId,
    },
  });
  ids = { first: await createEndpoint('bulk-first'), second: await createEndpoint('bulk-second'), plan: drPlan.id };
});
after(() => cloud?.close());

test('a bad import file is refused before anything is read, naming each entry and its reason', async () => {
  const refused = await p.run([
    'import',
    '--file',
    importFile({
      resources: [
        { type: ENDPOINT, name: 'a' },
        { type: ENDPOINT, name: 'b', id: 'x', parent: 'nope' },
      ],
    }),
  ]);
  assert.equal(refused.code, 1);
  assert.equal(
    refused.stderr,
    `error: resource 'a' of type '${ENDPOINT}' has no ID\n`,
    'the checks of every entry come first',
  );
  const parent = await p.run([
    'import',
    '--file',
    importFile({ resources: [{ type: ENDPOINT, name: 'b', id: 'x', parent: 'nope' }] }),
  ]);
  assert.equal(
    parent.stderr,
    `error: the parent 'nope' for resource 'b' of type '${ENDPOINT}' has no entry in 'nameTable'\n`,
  );
  writeFileSync(join(p.dir, 'broken.json'), '{"resources": [');
  const broken = await p.run(['import', '--file', join(p.dir, 'broken.json')]);
  assert.match(broken.stderr, /^error: could not read import file: /);
  const both = await p.run(['import', ENDPOINT, 'x', 'y', '--file', importFile(bulk())]);
  assert.equal(both.stderr, 'error: an inline resource may not be specified in conjunction with an import file\n');
  const none = await p.run(['import', ENDPOINT]);
  assert.equal(
    none.stderr,
    'error: an inline resource must be specified if no converter or import file is used, missing name and id\n',
  );
  assert.equal(readCheckpoint(p).resources!.length, 2, 'the stack and its provider: nothing imported');
});

test('import --file adopts them all, parents first; the code --out writes previews with no change', async () => {
  const out = join(p.dir, 'imported.ts');
  // --preview-only, as Pulumi's: the plan of the import, nothing adopted, no code.
  const before = readCheckpoint(p).resources!.length;
  const preview = ok(await p.run(['import', '--file', importFile(bulk()), '--preview-only', '--out', out]));
  assert.match(preview.stdout, /^Previewing import \(dev\):$/m);
  for (const name of ['group', 'second', 'first-endpoint', 'plan'])
    assert.match(preview.stdout, new RegExp(`^ = +\\S+ ${name} import$`, 'm'), name);
  // A custom resource of the file as a parent: in a preview it is not in the state, yet it is there.
  const nested = importFile({
    resources: [
      { type: ENDPOINT, name: 'outer', id: ids.first },
      { type: ENDPOINT, name: 'inner', id: ids.second, parent: 'outer' },
    ],
  });
  assert.match(ok(await p.run(['import', '--file', nested, '--preview-only'])).stdout, /^ = +\S+ inner import$/m);
  assert.equal(readCheckpoint(p).resources!.length, before);
  assert.equal(existsSync(out), false, 'no code');
  const imported = ok(await p.run(['import', '--file', importFile(bulk()), '--protect=false', '--out', out]));
  assert.doesNotMatch(imported.stdout, /Please copy/, '--out: the code goes to the file, not stdout');
  const deployment = readCheckpoint(p);
  assertIntegrity(deployment);
  const byUrn = new Map(deployment.resources!.map((r) => [r.urn, r as unknown as Record<string, unknown>]));
  const group = byUrn.get(urn(GROUP, 'group'))!;
  assert.equal(group.custom, false, 'a component, recorded without a read');
  assert.equal(group.id, undefined);
  const second = byUrn.get(urn(`${GROUP}$${ENDPOINT}`, 'second'))!;
  assert.equal(second.id, ids.second);
  assert.equal(second.parent, urn(GROUP, 'group'));
  assert.equal(byUrn.get(urn(ENDPOINT, 'first-endpoint'))!.id, ids.first, 'logicalName names it in the URN');
  const plan = byUrn.get(urn(DRPLAN, 'plan'))!;
  assert.equal(plan.id, ids.plan);
  assert.match(String(plan.provider), new RegExp(`^${urn('pulumi:providers:oci', 'standby')}::`));

  const code = readFileSync(out, 'utf8');
  assert.match(code, /^import \* as pulumi from "@pulumi\/pulumi";\nimport \* as oci from "@pulumi\/oci";\n\n/);
  // In the order imported (parents first), each variable named as the file names it.
  const order = [...code.matchAll(/^const (\w+) = /gm)].map((m) => m[1]);
  assert.deepEqual(order.indexOf('group') < order.indexOf('second'), true, order.join());
  assert.match(code, /const group = new pulumi\.ComponentResource\("importfile:index:Group", "group", \{\}\);/);
  assert.match(code, /const first = new oci\.ailanguage\.Endpoint\("first-endpoint", \{/);
  assert.match(code, /\}, \{\n {4}parent: group,\n\}\);/);
  assert.match(code, /\}, \{\n {4}provider: standby,\n\}\);/);
  // Pasted into the program (its imports are there already): nothing to do.
  writeFileSync(join(p.dir, 'index.ts'), `${INDEX}\n${code.slice(code.indexOf('\n\n') + 2)}`);
  ok(await p.run(['preview', '--expect-no-changes']));

  // Imported again: what the stack holds with the same id is left as it is (Pulumi's same step).
  const again = ok(await p.run(['import', '--file', importFile(bulk()), '--protect=false', '--generate-code=false']));
  assert.doesNotMatch(again.stdout, /Please copy|const /, '--generate-code=false: no code');
  assert.equal(readCheckpoint(p).resources!.length, deployment.resources!.length);
  // Its code declares them as the state holds them, unprotected (Pulumi writes `protect` from the state).
  const againOut = join(p.dir, 'again.ts');
  ok(await p.run(['import', '--file', importFile(bulk()), '--out', againOut]));
  assert.equal(readCheckpoint(p).resources!.filter((r) => (r as { protect?: boolean }).protect).length, 0);
  assert.doesNotMatch(readFileSync(againOut, 'utf8'), /protect: true/);
  const other = await p.run([
    'import',
    '--file',
    importFile({ resources: [{ type: ENDPOINT, name: 'first-endpoint', id: ids.second }] }),
  ]);
  assert.match(other.stderr, /::first-endpoint is already in the stack\n$/, 'another id under the same URN');
  // `properties`, as Pulumi's ImportStep: only those of the inputs read are kept.
  const keep = ['compartmentId', 'displayName', 'modelId'];
  ok(
    await p.run([
      'import',
      '--file',
      importFile({ resources: [{ type: ENDPOINT, name: 'trimmed', id: ids.first, properties: keep }] }),
      '--generate-code=false',
    ]),
  );
  const trimmed = readCheckpoint(p).resources!.find((r) => r.urn === urn(ENDPOINT, 'trimmed'))!;
  assert.deepEqual(Object.keys((trimmed as { inputs?: object }).inputs ?? {}).sort(), keep);
});

test('an import --file that fails part-way prints the code of what it adopted, then fails', async () => {
  // As import.go: the code is generated from the state after the import, whatever its error.
  const missing = `${ids.first.slice(0, -6)}zzzzzz`;
  const file = importFile({
    resources: [
      { type: ENDPOINT, name: 'partial', id: ids.second },
      { type: ENDPOINT, name: 'missing', id: missing },
    ],
  });
  const failed = await p.run(['import', '--file', file, '--protect=false']);
  assert.equal(failed.code, 1, failed.stdout + failed.stderr);
  assert.match(failed.stderr, new RegExp(`::missing: resource '${missing}' does not exist`));
  assert.match(failed.stdout, /Please copy the following code into your Pulumi application/);
  assert.match(failed.stdout, /const partial = new oci\.ailanguage\.Endpoint\("partial", \{/);
  assert.doesNotMatch(failed.stdout, /const missing/);
  const held = readCheckpoint(p).resources!.map((r) => r.urn);
  assert.ok(held.includes(urn(ENDPOINT, 'partial')));
  assert.ok(!held.includes(urn(ENDPOINT, 'missing')));
});
