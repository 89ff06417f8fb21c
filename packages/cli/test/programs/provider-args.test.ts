import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { models } from 'oci-disasterrecovery';
import { scratchDir } from '../../../emulator/test/support/scratch';
import { readConfigProfile } from '../../src/embedded';
import { inlineProgram, ok, program, readCheckpoint, startCloud, type Cloud } from '../support/programs';

// A @pulumi/oci program whose explicit providers carry their own credentials, as pulumi-oci users
// write them: the API key's settings as arguments (the key itself from a secret), or a profile of
// ~/.oci/config; the default provider takes `oci:region` from the stack's config. No OCI_*
// variable is set: only the emulator's address.
const INDEX = `import * as pulumi from '@pulumi/pulumi';
import * as oci from '@pulumi/oci';

const config = new pulumi.Config();
const compartmentId = config.require('compartmentId');
const keyed = new oci.Provider('keyed', {
  auth: 'ApiKey',
  region: config.require('standbyRegion'),
  tenancyOcid: config.require('tenancy'),
  userOcid: config.require('user'),
  fingerprint: config.require('fingerprint'),
  privateKey: config.requireSecret('privateKey'),
  retryDurationSeconds: 30,
});
const profiled = new oci.Provider('profiled', { configFileProfile: 'TEAM' });
const groupId = oci.disasterrecovery
  .getDrProtectionGroupsOutput({ compartmentId, role: 'STANDBY' }, { provider: keyed })
  .drProtectionGroupCollections.apply((c) => c[0].items[0].id);
const keyedPlan = new oci.disasterrecovery.DrPlan(
  'keyed',
  { displayName: 'keyed', type: 'FAILOVER', drProtectionGroupId: groupId },
  { provider: keyed },
);
const defaultPlan = new oci.disasterrecovery.DrPlan('default', {
  displayName: 'default',
  type: 'SWITCHOVER',
  drProtectionGroupId: groupId,
});
const endpoint = new oci.ailanguage.Endpoint(
  'profiled',
  { compartmentId, modelId: config.require('modelId'), displayName: 'profiled' },
  { provider: profiled },
);
export const ids = { keyedPlan: keyedPlan.id, defaultPlan: defaultPlan.id, endpoint: endpoint.id };
`;

test('explicit providers with their credentials as arguments or a config profile, and oci:region for the default one', async () => {
  const cloud = await startCloud();
  try {
    const profile = readConfigProfile(cloud.t.emulator.configFile, 'DEFAULT');
    const home = scratchDir('home');
    mkdirSync(join(home, '.oci'));
    writeFileSync(
      join(home, '.oci', 'config'),
      `[TEAM]\nuser=${profile.user}\ntenancy=${profile.tenancy}\nfingerprint=${profile.fingerprint}\n` +
        `key_file=${profile.key_file}\nregion=${cloud.t.emulator.region}\n`,
    );
    const p = program(inlineProgram('keys', INDEX), {
      OCIKIT_ENDPOINT: cloud.t.url,
      HOME: home,
      PULUMI_CONFIG_PASSPHRASE: 'test passphrase',
      PULUMI_NODEJS_TRANSPILE_ONLY: 'true',
    });
    p.setConfig({
      ...cloud.ociConfig,
      'oci:region': cloud.sandbox.peerRegion,
      'keys:compartmentId': cloud.sandbox.compartmentId,
      'keys:standbyRegion': cloud.sandbox.peerRegion,
      'keys:modelId': cloud.sandbox.textModelId,
      'keys:tenancy': profile.tenancy,
      'keys:user': profile.user,
      'keys:fingerprint': profile.fingerprint,
    });
    const key = readFileSync(profile.key_file, 'utf8');
    ok(await p.run(['config', 'set', '--secret', 'privateKey', '--', key]));

    ok(await p.run(['up', '--yes']));
    const { ids } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout);
    const dr = cloud.t.dr(cloud.sandbox.peerRegion);
    for (const [id, type] of [
      [ids.keyedPlan, 'FAILOVER'],
      [ids.defaultPlan, 'SWITCHOVER'],
    ]) {
      const plan = (await dr.getDrPlan({ drPlanId: id })).drPlan;
      assert.deepEqual([plan.type, plan.drProtectionGroupId], [type, cloud.sandbox.standbyGroupId]);
    }
    assert.equal((await cloud.t.language().getEndpoint({ endpointId: ids.endpoint })).endpoint.displayName, 'profiled');
    assert.match(ok(await p.run(['preview'])).stdout, /Resources:\n {4}\d+ unchanged\n/);
    // Every provider's inputs as Pulumi records them (providers/registry.go SetProviderVersion,
    // filterProviderConfig): the SDK's version and an empty `__internal`, which the outputs leave out.
    const deployment = JSON.parse(ok(await p.run(['stack', 'export'])).stdout).deployment;
    const providers = deployment.resources.filter((r: { type: string }) => r.type === 'pulumi:providers:oci');
    assert.equal(providers.length, 3, 'the default provider and the two explicit ones');
    for (const r of providers) {
      assert.deepEqual([r.inputs.__internal, typeof r.inputs.version], [{}, 'string'], r.urn);
      assert.deepEqual([r.outputs.__internal, r.outputs.version], [undefined, r.inputs.version], r.urn);
    }
    for (const file of readdirSync(join(p.dir, '.ocikit'), { recursive: true })) {
      const path = join(p.dir, '.ocikit', String(file));
      if (/\.json$/.test(path)) assert.ok(!readFileSync(path, 'utf8').includes('PRIVATE KEY'), `${file} holds the key`);
    }
  } finally {
    await cloud.close();
  }
});

const HEADER = `import * as pulumi from '@pulumi/pulumi';
import * as oci from '@pulumi/oci';
const c = new pulumi.Config();
`;

/** A program whose explicit providers reach the test's cloud through the environment, as a user's read OCI_*. */
function envProgram(cloud: Cloud, name: string, index: string) {
  return program(inlineProgram(name, index), {
    ...cloud.env,
    PULUMI_CONFIG_PASSPHRASE: 'test passphrase',
    PULUMI_NODEJS_TRANSPILE_ONLY: 'true',
  });
}

// pulumi-oci's bridge diffs a provider's configuration over every input the engine keeps, `version`
// included, and marks no key as forcing a replacement (pulumi-terraform-bridge configDiffer.DiffConfig;
// pulumi-oci's ProviderInfo.Config is empty): a new @pulumi/oci version or another region is an
// update of the explicit provider, and the resources it manages stay as they are.
test("an explicit provider's new version or region is an update of the provider, its resources unchanged", async () => {
  const cloud = await startCloud();
  try {
    const index = (
      options: string,
    ) => `${HEADER}const standby = new oci.Provider('standby', { region: c.require('region') }${options});
const plan = new oci.disasterrecovery.DrPlan('plan', { displayName: 'plan', type: 'FAILOVER', drProtectionGroupId: c.require('group') }, { provider: standby });
export const id = plan.id;
`;
    const p = envProgram(cloud, 'upgrade', index(", { version: '4.19.0' }"));
    const config = { ...cloud.ociConfig, 'upgrade:group': cloud.sandbox.standbyGroupId };
    p.setConfig({ ...config, 'upgrade:region': cloud.sandbox.peerRegion });
    ok(await p.run(['up', '--yes']));
    const { id } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout);
    assert.equal((await cloud.t.dr(cloud.sandbox.peerRegion).getDrPlan({ drPlanId: id })).drPlan.displayName, 'plan');

    writeFileSync(join(p.dir, 'index.ts'), index(''));
    assert.match(
      ok(await p.run(['preview', '--diff'])).stdout,
      / ~ {3}pulumi:providers:oci standby update\n {8}~ version: "4\.19\.0" => "4\.20\.0"\nResources:\n {4}~ 1 to update\n {4}2 unchanged\n/,
    );
    const upgraded = ok(await p.run(['up', '--yes'])).stdout;
    assert.match(upgraded, /~ {3}pulumi:providers:oci standby updated/);
    assert.match(upgraded, /Resources:\n {4}~ 1 updated\n {4}2 unchanged\n/);
    assert.equal(readCheckpoint(p).resources?.find((r) => r.urn.endsWith('::standby'))?.inputs?.version, '4.20.0');

    p.setConfig({ ...config, 'upgrade:region': cloud.t.emulator.region });
    const moved = ok(await p.run(['up', '--yes'])).stdout;
    assert.match(moved, /~ {3}pulumi:providers:oci standby updating \[diff: ~region\]/);
    assert.match(moved, /Resources:\n {4}~ 1 updated\n {4}2 unchanged\n/);
    assert.equal(JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout).id, id);
  } finally {
    await cloud.close();
  }
});

// Pulumi does not configure a provider whose inputs hold unknowns (an output of a resource still
// to be created or replaced, in a preview), and answers for it without the plugin
// (pkg/resource/plugin/provider_plugin.go): an Invoke gets an empty result, a resource's Diff is
// unavailable, which the step generator takes as an update with a warning.
test('a provider whose region is unknown in a preview answers invokes empty and its resources with a warning', async () => {
  const cloud = await startCloud();
  try {
    const index = (
      type: string,
    ) => `${HEADER}const first = new oci.disasterrecovery.DrPlan('first', { displayName: 'first', type: '${type}', drProtectionGroupId: c.require('group') });
const standby = new oci.Provider('standby', { region: first.id.apply(() => c.require('region')) });
export const groups = oci.disasterrecovery
  .getDrProtectionGroupsOutput({ compartmentId: c.require('compartmentId') }, { provider: standby })
  .apply((r) => (r.drProtectionGroupCollections ?? []).flatMap((x) => x.items.map((g) => g.id)));
new oci.disasterrecovery.DrPlan('second', { displayName: 'second', type: 'FAILOVER', drProtectionGroupId: c.require('group') }, { provider: standby });
export const seen = oci.disasterrecovery.DrPlan.get('seen', c.require('seen'), undefined, { provider: standby }).displayName;
`;
    const p = envProgram(cloud, 'unknown', index('SWITCHOVER'));
    // A plan of the standby region, which the program reads with `.get` through the provider.
    const { drPlan } = await cloud.t.dr(cloud.sandbox.peerRegion).createDrPlan({
      createDrPlanDetails: {
        displayName: 'seen',
        type: models.DrPlanType.Switchover,
        drProtectionGroupId: cloud.sandbox.standbyGroupId,
      },
    });
    p.setConfig({
      ...cloud.ociConfig,
      'oci:region': cloud.sandbox.peerRegion,
      'unknown:seen': drPlan.id,
      'unknown:group': cloud.sandbox.standbyGroupId,
      'unknown:region': cloud.sandbox.peerRegion,
      'unknown:compartmentId': cloud.sandbox.compartmentId,
    });
    // The environment's region (the home one) has protection groups: the invoke does not ask it.
    const events = ok(await p.run(['preview', '--json']))
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const stack = events.filter((e) => e.resOutputsEvent?.metadata.type === 'pulumi:pulumi:Stack').pop();
    // The read gives no outputs (the environment's region has no such plan to read).
    assert.deepEqual(stack.resOutputsEvent.metadata.new.outputs, {
      groups: [],
      seen: '04da6b54-80e4-46f7-96ec-b56ff0331ba9',
    });
    ok(await p.run(['up', '--yes']));
    assert.deepEqual(JSON.parse(ok(await p.run(['stack', 'output', 'groups', '--json'])).stdout), [
      cloud.sandbox.standbyGroupId,
    ]);

    // `first` is replaced: its new id, and so the provider's region, is unknown in the preview.
    writeFileSync(join(p.dir, 'index.ts'), index('FAILOVER'));
    const preview = ok(await p.run(['preview']));
    assert.match(preview.stdout, /\+- {2}oci:DisasterRecovery\/drPlan:DrPlan first replace/);
    assert.match(preview.stdout, / ~ {3}oci:DisasterRecovery\/drPlan:DrPlan second update/);
    assert.match(
      preview.stdout,
      /oci:DisasterRecovery\/drPlan:DrPlan second: warning: The provider for this resource has inputs that are not known during preview\.\nThis preview may not correctly represent the changes that will be applied during an update\./,
    );
  } finally {
    await cloud.close();
  }
});
