// Worked examples for the reference pages, keyed by token. They are TypeScript programs against
// @ocikit/oci; the type tests compile every example of every page, so they cannot rot. Tokens
// without an entry get an example built from the schema (required inputs only).

export const examples: Record<string, string> = {
  'oci:DisasterRecovery/drPlan:DrPlan': `import * as pulumi from '@pulumi/pulumi';
import * as oci from '@ocikit/oci';

const config = new pulumi.Config();
const compartmentId = config.require('compartmentId');

// Plans live in the STANDBY protection group of an associated pair.
const standby = oci.disasterrecovery.getDrProtectionGroupsOutput({ compartmentId, role: 'STANDBY', state: 'ACTIVE' });

const plan = new oci.disasterrecovery.DrPlan('switchover', {
  displayName: 'Switchover to standby',
  drProtectionGroupId: standby.apply((r) => r.drProtectionGroupCollections[0].items[0].id),
  type: 'SWITCHOVER',
  freeformTags: { team: 'platform' },
  // Raise refreshTrigger to run RefreshDrPlan after the protection groups' members change,
  // then raise verifyTrigger to run VerifyDrPlan.
  refreshTrigger: 0,
  verifyTrigger: 0,
});

export const planId = plan.id;
export const planState = plan.state;
export const planGroupCount = plan.planGroups.apply((groups) => groups.length);
`,
  'oci:AiLanguage/endpoint:Endpoint': `import * as pulumi from '@pulumi/pulumi';
import * as oci from '@ocikit/oci';

const config = new pulumi.Config();
const compartmentId = config.require('compartmentId');

// Deploy the first ACTIVE model of the compartment.
const models = oci.ailanguage.getModelsOutput({ compartmentId, state: 'ACTIVE' });

const endpoint = new oci.ailanguage.Endpoint('tickets', {
  compartmentId,
  modelId: models.apply((r) => r.modelCollections[0].items[0].id),
  displayName: 'ticket-classifier',
  alias: 'tickets',
  inferenceUnits: 1,
});

export const endpointId = endpoint.id;
export const endpointState = endpoint.state;
export const projectId = endpoint.projectId;
`,
};
