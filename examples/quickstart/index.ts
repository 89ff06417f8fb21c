import * as pulumi from '@pulumi/pulumi';
import * as oci from '@ocikit/oci';

// Against the embedded emulator, ocikit passes the sandbox's ids as `ocikit:*` config; against a
// tenancy, set `quickstart:compartmentId` and `quickstart:standbyRegion` instead.
const config = new pulumi.Config();
const sandbox = new pulumi.Config('ocikit');
const compartmentId = config.get('compartmentId') ?? sandbox.require('sandboxCompartmentId');
const standbyRegion = config.get('standbyRegion') ?? sandbox.require('sandboxPeerRegion');
const inferenceUnits = config.getNumber('inferenceUnits') ?? 1;
// Raising these runs a Refresh / Verify of the plan (OCI accepts them once the protection group
// changed: `npm run change-group` makes such a change in the sandbox).
const refreshTrigger = config.getNumber('refreshTrigger') ?? 0;
const verifyTrigger = config.getNumber('verifyTrigger') ?? 0;

// The STANDBY protection group lives in the peer region: reach it (and create the plan there)
// through an explicit provider for that region.
const standby = new oci.Provider('standby', { region: standbyRegion });

const standbyGroupId = oci.disasterrecovery
  .getDrProtectionGroupsOutput({ compartmentId, role: 'STANDBY', state: 'ACTIVE' }, { provider: standby })
  .apply((result) => {
    const group = result.drProtectionGroupCollections.flatMap((c) => c.items ?? [])[0];
    if (!group?.id) throw new Error(`no ACTIVE STANDBY protection group in ${compartmentId} (${standbyRegion})`);
    return group.id;
  });

const modelId = oci.ailanguage.getModelsOutput({ compartmentId, state: 'ACTIVE' }).apply((result) => {
  const model = result.modelCollections
    .flatMap((c) => c.items ?? [])
    .find((m) => (m.modelDetails ?? []).some((d) => d.modelType === 'TEXT_CLASSIFICATION'));
  if (!model?.id) throw new Error(`no ACTIVE custom text classification model in ${compartmentId}`);
  return model.id;
});

const plan = new oci.disasterrecovery.DrPlan(
  'switchover',
  {
    displayName: 'quickstart-switchover',
    type: 'SWITCHOVER',
    drProtectionGroupId: standbyGroupId,
    refreshTrigger,
    verifyTrigger,
  },
  { provider: standby },
);

const endpoint = new oci.ailanguage.Endpoint('tickets', {
  compartmentId,
  modelId,
  displayName: 'quickstart-tickets',
  inferenceUnits,
});

export const drPlanId = plan.id;
export const drPlanState = plan.state;
export const drPlanSubState = plan.lifecycleSubState;
export const drPlanGroupCount = plan.planGroups.apply((groups) => groups.length);
export const endpointId = endpoint.id;
export const endpointState = endpoint.state;
